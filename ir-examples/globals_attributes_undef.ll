; Module-level forms the front end must accept: scalar globals of every integer width and of float and
; double (with alignment, constant vs mutable, internal/private/dso_local linkage), float and double
; arrays, a nested double matrix, zeroinitializer arrays, function and parameter attributes with #N
; groups, and undef/poison in places where their value cannot reach the output (the unchosen arm of a
; select, a phi edge never taken, an argument the callee ignores, bits masked away).
; Exit status: the sum of the printed integers & 0x7f.
source_filename = "globals_attributes_undef.ll"

@g1 = internal global i1 true
@g8 = global i8 -5
@g16 = internal global i16 1234, align 2
@g32 = dso_local global i32 -100000, align 4
@g64 = private global i64 81985529216486895, align 8
@gf = internal global float 0x400921FB60000000, align 4
@gd = internal constant double 2.718281828459045
@fa = internal global [3 x float] [float 1.0, float 2.5, float -0.125], align 16
@dm = internal constant [2 x [2 x double]] [[2 x double] [double 1.0, double 2.0], [2 x double] [double 3.0, double 4.5]]
@zd = internal global [4 x double] zeroinitializer, align 32
@z64 = private global [5 x i64] zeroinitializer
@gc = private constant i32 7

declare i32 @putchar(i32 noundef) #1

define internal void @print_i64(i64 noundef %v) #0 {
entry:
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %digits
minus:
  call i32 @putchar(i32 noundef 45)
  br label %digits
digits:
  %mag0 = sub i64 0, %v
  %mag = select i1 %neg, i64 %mag0, i64 %v
  call void @print_u64(i64 %mag)
  call i32 @putchar(i32 32)
  ret void
}

define internal void @print_u64(i64 %v) nounwind {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @print_u64(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

; Ignores its second argument, which callers may pass as undef.
define private noundef i64 @first_of(i64 noundef %a, i32 %unused) #0 {
  ret i64 %a
}

define internal signext i16 @widen_sum(i8 signext %a, i16 zeroext %b) #2 {
  %wa = sext i8 %a to i16
  %s = add i16 %wa, %b
  ret i16 %s
}

define dso_local i32 @main() #0 {
entry:
  %b1 = load i1, ptr @g1
  %v8 = load i8, ptr @g8
  %v16 = load i16, ptr @g16, align 2
  %v32 = load i32, ptr @g32, align 4
  %v64 = load i64, ptr @g64, align 8
  %w1 = zext i1 %b1 to i64
  %w8 = sext i8 %v8 to i64
  %w16 = zext i16 %v16 to i64
  %w32 = sext i32 %v32 to i64
  call void @print_i64(i64 %w1)
  call void @print_i64(i64 %w8)
  call void @print_i64(i64 %w16)
  call void @print_i64(i64 %w32)
  call void @print_i64(i64 %v64)
  call i32 @putchar(i32 10)
  ; Floating globals, scaled to integers exactly representable.
  %f = load float, ptr @gf
  %d = load double, ptr @gd
  %fe = fpext float %f to double
  %fs = fmul double %fe, 1.0e+06
  %fi = fptosi double %fs to i64
  %ds = fmul double %d, 1.0e+06
  %di = fptosi double %ds to i64
  call void @print_i64(i64 %fi)
  call void @print_i64(i64 %di)
  br label %sum_fa
sum_fa:
  %i = phi i64 [ 0, %entry ], [ %i1, %sum_fa ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %sum_fa ]
  %pf = getelementptr inbounds [3 x float], ptr @fa, i64 0, i64 %i
  %fv = load float, ptr %pf
  %acc1 = fadd float %acc, %fv
  ; Writes each element back doubled: the array is mutable.
  %dbl = fmul float %fv, 2.0
  store float %dbl, ptr %pf
  %i1 = add i64 %i, 1
  %im = icmp ult i64 %i1, 3
  br i1 %im, label %sum_fa, label %matrix
matrix:
  %acc8 = fmul float %acc1, 8.0
  %acci = fptosi float %acc8 to i64
  call void @print_i64(i64 %acci)
  %pfa2 = getelementptr inbounds [3 x float], ptr @fa, i64 0, i64 2
  %fa2 = load float, ptr %pfa2
  %fa2x = fmul float %fa2, 16.0
  %fa2i = fptosi float %fa2x to i64
  call void @print_i64(i64 %fa2i)
  ; det of @dm, stored into the zeroed double array, then read back with the untouched zeros.
  %p00 = getelementptr inbounds [2 x [2 x double]], ptr @dm, i64 0, i64 0, i64 0
  %p01 = getelementptr inbounds [2 x [2 x double]], ptr @dm, i64 0, i64 0, i64 1
  %p10 = getelementptr inbounds [2 x [2 x double]], ptr @dm, i64 0, i64 1, i64 0
  %p11 = getelementptr inbounds [2 x [2 x double]], ptr @dm, i64 0, i64 1, i64 1
  %m00 = load double, ptr %p00
  %m01 = load double, ptr %p01
  %m10 = load double, ptr %p10
  %m11 = load double, ptr %p11
  %ad = fmul double %m00, %m11
  %bc = fmul double %m01, %m10
  %det = fsub double %ad, %bc
  %zslot = getelementptr inbounds [4 x double], ptr @zd, i64 0, i64 2
  store double %det, ptr %zslot, align 16
  %z1p = getelementptr inbounds [4 x double], ptr @zd, i64 0, i64 1
  %z1 = load double, ptr %z1p
  %z2 = load double, ptr %zslot
  %zz = fadd double %z1, %z2
  %zz2 = fmul double %zz, 2.0
  %zzi = fptosi double %zz2 to i64
  call void @print_i64(i64 %zzi)
  %z64p = getelementptr inbounds [5 x i64], ptr @z64, i64 0, i64 4
  %z64v = load i64, ptr %z64p
  call void @print_i64(i64 %z64v)
  call i32 @putchar(i32 10)
  ; undef and poison whose values never matter.
  %c7 = load i32, ptr @gc
  %sel = select i1 %b1, i32 %c7, i32 poison
  %masked = and i32 undef, 0
  %keep = or i32 %sel, %masked
  %fo = call i64 @first_of(i64 11, i32 undef)
  %ws = call i16 @widen_sum(i8 -3, i16 65000)
  %ws64 = sext i16 %ws to i64
  br i1 %b1, label %taken, label %not_taken
not_taken:
  br label %join
taken:
  br label %join
join:
  %ph = phi i32 [ undef, %not_taken ], [ 5, %taken ]
  %keep64 = sext i32 %keep to i64
  %ph64 = zext i32 %ph to i64
  call void @print_i64(i64 %keep64)
  call void @print_i64(i64 %fo)
  call void @print_i64(i64 %ws64)
  call void @print_i64(i64 %ph64)
  call i32 @putchar(i32 10)
  %s1 = add i64 %w1, %w8
  %s2 = add i64 %s1, %w16
  %s3 = add i64 %s2, %w32
  %s4 = add i64 %s3, %v64
  %s5 = add i64 %s4, %fi
  %s6 = add i64 %s5, %di
  %s7 = add i64 %s6, %acci
  %s8 = add i64 %s7, %fa2i
  %s9 = add i64 %s8, %zzi
  %s10 = add i64 %s9, %keep64
  %s11 = add i64 %s10, %fo
  %s12 = add i64 %s11, %ws64
  %s13 = add i64 %s12, %ph64
  %st64 = and i64 %s13, 127
  %st = trunc i64 %st64 to i32
  ret i32 %st
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" }
attributes #1 = { nounwind }
attributes #2 = { noinline nounwind optnone }
