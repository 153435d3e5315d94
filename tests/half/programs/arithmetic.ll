; half arithmetic as LLVM legalises it (promoted to float, rounded back after each operation) at
; boundary values: signed zeros, the smallest and largest subnormals, the smallest normal, 1 and its
; next value, the largest finite value, infinities, a quiet NaN, 2^-11 (half of 1's last place:
; sums with 1 are rounding ties). Operands come from a writable global so that nothing folds. The
; doubles: ties, overflow to infinity, underflow to zero and to the smallest subnormal, and
; 1 + 2^-11 + 2^-40, which narrows to 0x3c01 in one step but to 0x3c00 through float.
declare i32 @printf(ptr, ...)
declare half @llvm.fabs.f16(half)
declare half @llvm.copysign.f16(half, half)
@fmt = private constant [4 x i8] c"%x \00"
@nl = private constant [2 x i8] c"\0A\00"
@vals = global [17 x i16] [i16 0, i16 32768, i16 1, i16 1023, i16 1024, i16 15360, i16 15361,
  i16 31743, i16 64511, i16 31744, i16 64512, i16 32256, i16 4096, i16 13653, i16 16968, i16 50432, i16 22080]
@doubles = global [8 x double] [double 0x3FF0020000000000, double 0x3FF0060000000000, double 65520.0,
  double 65519.99, double 0x3E60000000000000, double 0x3E68000000000000, double 0x3FF0020000001000, double -1.0e10]
@ints = global [6 x i64] [i64 65519, i64 65520, i64 2049, i64 2051, i64 -7, i64 -1]
@slot = global half 0xH0000

define void @p(i64 %v) noinline {
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret void
}

define void @ph(half %h) noinline {
  %b = bitcast half %h to i16
  %w = zext i16 %b to i64
  call void @p(i64 %w)
  ret void
}

define void @line() noinline {
  call i32 (ptr, ...) @printf(ptr @nl)
  ret void
}

define half @val(i64 %i) noinline {
  %a = getelementptr [17 x i16], ptr @vals, i64 0, i64 %i
  %b = load i16, ptr %a
  %h = bitcast i16 %b to half
  ret half %h
}

define void @pair(half %a, half %b) noinline {
  %add = fadd half %a, %b
  call void @ph(half %add)
  %sub = fsub half %a, %b
  call void @ph(half %sub)
  %mul = fmul half %a, %b
  call void @ph(half %mul)
  %div = fdiv half %a, %b
  call void @ph(half %div)
  %rem = frem half %a, %b
  call void @ph(half %rem)
  %cs = call half @llvm.copysign.f16(half %a, half %b)
  call void @ph(half %cs)
  %lt = fcmp olt half %a, %b
  %ueq = fcmp ueq half %a, %b
  %one = fcmp one half %a, %b
  %c1 = zext i1 %lt to i64
  %c2 = zext i1 %ueq to i64
  %c3 = zext i1 %one to i64
  %c12 = shl i64 %c2, 1
  %c13 = shl i64 %c3, 2
  %c = or i64 %c1, %c12
  %cc = or i64 %c, %c13
  call void @p(i64 %cc)
  %sel = select i1 %lt, half %a, half %b
  call void @ph(half %sel)
  ret void
}

define void @single(half %a) noinline {
  %n = fneg half %a
  call void @ph(half %n)
  %abs = call half @llvm.fabs.f16(half %a)
  call void @ph(half %abs)
  %f = fpext half %a to float
  %fb = bitcast float %f to i32
  %fw = zext i32 %fb to i64
  call void @p(i64 %fw)
  %d = fpext half %a to double
  %db = bitcast double %d to i64
  call void @p(i64 %db)
  %back = fptrunc double %d to half
  call void @ph(half %back)
  store half %a, ptr @slot
  %l = load volatile half, ptr @slot
  call void @ph(half %l)
  ; fptosi/fptoui of NaN or infinity is poison: only finite values.
  %finite = fcmp olt half %abs, 0xH7C00
  br i1 %finite, label %convert, label %done
convert:
  %si = fptosi half %a to i32
  %siw = sext i32 %si to i64
  call void @p(i64 %siw)
  %small = fptosi half %a to i8
  %smallw = sext i8 %small to i64
  %inrange = fcmp olt half %abs, 0xH5800
  %s8 = select i1 %inrange, i64 %smallw, i64 0
  call void @p(i64 %s8)
  br label %done
done:
  ret void
}

define i32 @main() {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i1, %outer_next ]
  %a = call half @val(i64 %i)
  call void @single(half %a)
  call void @line()
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j1, %inner ]
  %b = call half @val(i64 %j)
  call void @pair(half %a, half %b)
  %j1 = add i64 %j, 1
  %jdone = icmp eq i64 %j1, 17
  br i1 %jdone, label %outer_next, label %inner
outer_next:
  call void @line()
  %i1 = add i64 %i, 1
  %idone = icmp eq i64 %i1, 17
  br i1 %idone, label %conversions, label %outer
conversions:
  %k = phi i64 [ 0, %outer_next ], [ %k1, %conversions ]
  %dp = getelementptr [8 x double], ptr @doubles, i64 0, i64 %k
  %dv = load double, ptr %dp
  %dh = fptrunc double %dv to half
  call void @ph(half %dh)
  %df = fptrunc double %dv to float
  %fh = fptrunc float %df to half
  call void @ph(half %fh)
  %k1 = add i64 %k, 1
  %kdone = icmp eq i64 %k1, 8
  br i1 %kdone, label %ints, label %conversions
ints:
  call void @line()
  br label %intloop
intloop:
  %m = phi i64 [ 0, %ints ], [ %m1, %intloop ]
  %ip = getelementptr [6 x i64], ptr @ints, i64 0, i64 %m
  %iv = load i64, ptr %ip
  %sh = sitofp i64 %iv to half
  call void @ph(half %sh)
  %uh = uitofp i64 %iv to half
  call void @ph(half %uh)
  %i32v = trunc i64 %iv to i32
  %s32 = sitofp i32 %i32v to half
  call void @ph(half %s32)
  %m1 = add i64 %m, 1
  %mdone = icmp eq i64 %m1, 6
  br i1 %mdone, label %end, label %intloop
end:
  call void @line()
  ret i32 0
}
