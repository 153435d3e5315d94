; Floating point: float and double add/sub/mul/div/frem/fneg, hex float literals, a Horner loop with a
; double phi, subnormals, and every conversion (sitofp, uitofp, fptosi, fptoui, fpext, fptrunc) between
; i8/i16/i32/i64 and float/double, including uitofp/fptoui beyond the signed range. Each result is
; printed exactly, as its IEEE bits. Exit status: fptosi of the Horner value 11.3125, plus 40 (51).
source_filename = "float_arith.ll"

@fd = internal global [4 x double] [double 1.5, double -2.25, double 0x3FB999999999999A, double 1.000000e+10], align 8
@ff = internal global [4 x float] [float 2.5, float -7.500000e-01, float 0x3FB99999A0000000, float 3.0], align 4
@coeffs = internal constant [5 x double] [double 3.0, double -2.0, double 0.5, double 0x3FD5555555555555, double 1.25]
@tiny = internal global double 0x0000000000000001
@ints = internal global [4 x i64] [i64 -7, i64 -1, i64 200, i64 9007199254740993]

declare i32 @putchar(i32)

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

define internal void @print_i64(i64 %v) {
entry:
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %digits
minus:
  call i32 @putchar(i32 45)
  br label %digits
digits:
  %mag0 = sub i64 0, %v
  %mag = select i1 %neg, i64 %mag0, i64 %v
  call void @print_u64(i64 %mag)
  call i32 @putchar(i32 32)
  ret void
}

define internal void @show_d(double %x) {
  %bits = bitcast double %x to i64
  call void @print_u64(i64 %bits)
  call i32 @putchar(i32 32)
  ret void
}

define internal void @show_f(float %x) {
  %bits = bitcast float %x to i32
  %b64 = zext i32 %bits to i64
  call void @print_u64(i64 %b64)
  call i32 @putchar(i32 32)
  ret void
}

; Evaluates the polynomial with @coeffs at x by Horner's rule.
define internal double @horner(double %x) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %pc = getelementptr inbounds [5 x double], ptr @coeffs, i64 0, i64 %i
  %c = load double, ptr %pc
  %m = fmul double %acc, %x
  %acc1 = fadd double %m, %c
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, 5
  br i1 %more, label %loop, label %exit
exit:
  ret double %acc1
}

define i32 @main() {
entry:
  %pd1 = getelementptr inbounds [4 x double], ptr @fd, i64 0, i64 1
  %pd2 = getelementptr inbounds [4 x double], ptr @fd, i64 0, i64 2
  %pd3 = getelementptr inbounds [4 x double], ptr @fd, i64 0, i64 3
  %d0 = load double, ptr @fd
  %d1 = load double, ptr %pd1
  %d2 = load double, ptr %pd2
  %d3 = load double, ptr %pd3
  %da = fadd double %d0, %d2
  %ds = fsub double %d1, %d3
  %dm = fmul double %d1, %d2
  %dd = fdiv double %d0, %d2
  %dr = frem double %d3, %d0
  %dr2 = frem double %d1, %d0        ; -2.25 rem 1.5 = -0.75: the sign follows the dividend
  %dn = fneg double %d2
  call void @show_d(double %da)
  call void @show_d(double %ds)
  call void @show_d(double %dm)
  call void @show_d(double %dd)
  call void @show_d(double %dr)
  call void @show_d(double %dr2)
  call void @show_d(double %dn)
  call i32 @putchar(i32 10)
  %pf1 = getelementptr inbounds [4 x float], ptr @ff, i64 0, i64 1
  %pf2 = getelementptr inbounds [4 x float], ptr @ff, i64 0, i64 2
  %pf3 = getelementptr inbounds [4 x float], ptr @ff, i64 0, i64 3
  %f0 = load float, ptr @ff
  %f1 = load float, ptr %pf1
  %f2 = load float, ptr %pf2
  %f3 = load float, ptr %pf3
  %fa = fadd float %f0, %f2
  %fs = fsub float %f1, %f3
  %fm = fmul float %f2, %f2
  %fdv = fdiv float %f0, %f3
  %fr = frem float %f0, %f1
  %fn = fneg float %f1
  %zero = fsub float %f0, %f0
  %negzero = fneg float %zero
  call void @show_f(float %fa)
  call void @show_f(float %fs)
  call void @show_f(float %fm)
  call void @show_f(float %fdv)
  call void @show_f(float %fr)
  call void @show_f(float %fn)
  call void @show_f(float %negzero)
  call i32 @putchar(i32 10)
  ; 0.1 added ten times is not 1.0 in double.
  br label %tenth
tenth:
  %k = phi i32 [ 0, %entry ], [ %k1, %tenth ]
  %s = phi double [ 0.0, %entry ], [ %s1, %tenth ]
  %s1 = fadd double %s, %d2
  %k1 = add i32 %k, 1
  %kmore = icmp slt i32 %k1, 10
  br i1 %kmore, label %tenth, label %poly
poly:
  call void @show_d(double %s1)
  %h = call double @horner(double %d0)
  call void @show_d(double %h)
  %t = load double, ptr @tiny
  %t2 = fmul double %t, 3.0
  %t3 = fdiv double %t2, 2.0           ; subnormal 1.5 ulp rounds to even: 2
  call void @show_d(double %t2)
  call void @show_d(double %t3)
  call i32 @putchar(i32 10)
  ; ---- int -> float ----
  %pi1 = getelementptr inbounds [4 x i64], ptr @ints, i64 0, i64 1
  %pi2 = getelementptr inbounds [4 x i64], ptr @ints, i64 0, i64 2
  %pi3 = getelementptr inbounds [4 x i64], ptr @ints, i64 0, i64 3
  %i0 = load i64, ptr @ints
  %i1 = load i64, ptr %pi1
  %i2 = load i64, ptr %pi2
  %i3 = load i64, ptr %pi3
  %i0_32 = trunc i64 %i0 to i32
  %i1_32 = trunc i64 %i1 to i32
  %i2_8 = trunc i64 %i2 to i8
  %i0_16 = trunc i64 %i0 to i16
  %c1 = sitofp i32 %i0_32 to double
  %c2 = uitofp i32 %i1_32 to double    ; 4294967295
  %c3 = uitofp i64 %i1 to double       ; 2^64 after rounding
  %c4 = sitofp i64 %i3 to double       ; 2^53 + 1 rounds to even
  %c5 = uitofp i8 %i2_8 to float       ; 200
  %c6 = sitofp i8 %i2_8 to float       ; -56
  %c7 = sitofp i16 %i0_16 to float
  %c8 = uitofp i64 %i1 to float
  %c9 = sitofp i64 %i3 to float
  call void @show_d(double %c1)
  call void @show_d(double %c2)
  call void @show_d(double %c3)
  call void @show_d(double %c4)
  call void @show_f(float %c5)
  call void @show_f(float %c6)
  call void @show_f(float %c7)
  call void @show_f(float %c8)
  call void @show_f(float %c9)
  call i32 @putchar(i32 10)
  ; ---- float -> int, all in range ----
  %e1 = fmul double %d1, 1.774          ; -3.99...
  %r1 = fptosi double %e1 to i32        ; -3: truncation toward zero
  %r2 = fptosi float %f1 to i8          ; 0
  %e3 = fmul double %d3, 0.4            ; 4e9
  %r3 = fptoui double %e3 to i32        ; 4000000000
  %e4 = fmul double %d3, 1.5e9          ; 1.5e19 > INT64_MAX
  %r4 = fptoui double %e4 to i64
  %e5 = fadd float %c5, 0x3FE6666660000000   ; 200.7
  %r5 = fptoui float %e5 to i8          ; 200
  %e6 = fmul double %d1, 133.7
  %r6 = fptosi double %e6 to i16        ; -300
  %r7 = fptosi double %h to i64
  %r8 = fptoui float %f0 to i16
  %r1_64 = sext i32 %r1 to i64
  %r2_64 = sext i8 %r2 to i64
  %r3_64 = zext i32 %r3 to i64
  %r5_64 = zext i8 %r5 to i64
  %r6_64 = sext i16 %r6 to i64
  %r8_64 = zext i16 %r8 to i64
  call void @print_i64(i64 %r1_64)
  call void @print_i64(i64 %r2_64)
  call void @print_i64(i64 %r3_64)
  call void @print_u64(i64 %r4)
  call i32 @putchar(i32 32)
  call void @print_i64(i64 %r5_64)
  call void @print_i64(i64 %r6_64)
  call void @print_i64(i64 %r7)
  call void @print_i64(i64 %r8_64)
  call i32 @putchar(i32 10)
  ; ---- float <-> double ----
  %x1 = fpext float %f2 to double        ; 0.1f widened is not 0.1
  %x2 = fptrunc double %d2 to float      ; rounds back to 0.1f
  %third = fdiv double 1.0, 3.0
  %x3 = fptrunc double %third to float
  %x4 = fpext float %x3 to double
  %same = fcmp oeq double %x1, %d2
  %same_i = zext i1 %same to i64
  call void @show_d(double %x1)
  call void @show_f(float %x2)
  call void @show_f(float %x3)
  call void @show_d(double %x4)
  call void @print_i64(i64 %same_i)
  call i32 @putchar(i32 10)
  %st0 = trunc i64 %r7 to i32
  %st1 = add i32 %st0, 40
  ret i32 %st1
}
