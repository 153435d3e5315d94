; A JIT's integer mixing loop with a deopt safepoint per iteration: the stack map (ID 1) records the
; induction variable, a 64-bit hash, a 32-bit sum, a double and the trip count. Prints the checksum;
; exit status: checksum & 127.
source_filename = "mix_safepoint.ll"

; Volatile loads of these keep llc-19 from folding the loop.
@trips = internal global i64 150000000, align 8
@sink = internal global i64 0, align 8

declare i32 @putchar(i32)
declare void @llvm.experimental.stackmap(i64, i32, ...)

define internal void @print_u64(i64 %v) {
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

define i32 @main() {
entry:
  %n = load volatile i64, ptr @trips
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %h = phi i64 [ -7046029254386353131, %entry ], [ %h2, %loop ]
  %s = phi i32 [ 7, %entry ], [ %s1, %loop ]
  %f = phi double [ 1.0, %entry ], [ %f1, %loop ]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %i, i64 %h, i32 %s, double %f, i64 %n)
  %x = xor i64 %h, %i
  %m = mul i64 %x, -4658895280553007687
  %r = lshr i64 %m, 29
  %h2 = xor i64 %m, %r
  %t = trunc i64 %h2 to i32
  %t3 = mul i32 %t, 3
  %s1 = add i32 %s, %t3
  %low = and i32 %t, 255
  %fl = sitofp i32 %low to double
  %fs = fmul double %f, 0.75
  %f1 = fadd double %fs, %fl
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %done
done:
  %fi = fptosi double %f1 to i64
  %sw = zext i32 %s1 to i64
  %hs = xor i64 %h2, %sw
  %sum = add i64 %hs, %fi
  store volatile i64 %sum, ptr @sink
  call void @print_u64(i64 %sum)
  call i32 @putchar(i32 10)
  %t32 = trunc i64 %sum to i32
  %st = and i32 %t32, 127
  ret i32 %st
}
