; Every fcmp predicate (false, oeq .. uno, true) on float and double, over ordered pairs, equal values,
; -0.0 vs +0.0, infinities, and NaN made at run time as 0.0/0.0. Also a select driven by an fcmp with a
; NaN operand (a NaN-safe max). Exit status: the number of predicates that held, & 0x7f.
source_filename = "fcmp_nan.ll"

@zero_d = internal global double 0.0
@zero_f = internal global float 0.0

declare i32 @putchar(i32)

; Prints one 0/1 digit per fcmp predicate, in the order false oeq ogt oge olt ole one ord ueq ugt uge ult
; ule une uno true, and returns how many held.
define internal i32 @row_d(double %a, double %b) {
entry:
  %c0 = fcmp false double %a, %b
  %z0 = zext i1 %c0 to i32
  %d0 = add i32 %z0, 48
  call i32 @putchar(i32 %d0)
  %n0 = add i32 0, %z0
  %c1 = fcmp oeq double %a, %b
  %z1 = zext i1 %c1 to i32
  %d1 = add i32 %z1, 48
  call i32 @putchar(i32 %d1)
  %n1 = add i32 %n0, %z1
  %c2 = fcmp ogt double %a, %b
  %z2 = zext i1 %c2 to i32
  %d2 = add i32 %z2, 48
  call i32 @putchar(i32 %d2)
  %n2 = add i32 %n1, %z2
  %c3 = fcmp oge double %a, %b
  %z3 = zext i1 %c3 to i32
  %d3 = add i32 %z3, 48
  call i32 @putchar(i32 %d3)
  %n3 = add i32 %n2, %z3
  %c4 = fcmp olt double %a, %b
  %z4 = zext i1 %c4 to i32
  %d4 = add i32 %z4, 48
  call i32 @putchar(i32 %d4)
  %n4 = add i32 %n3, %z4
  %c5 = fcmp ole double %a, %b
  %z5 = zext i1 %c5 to i32
  %d5 = add i32 %z5, 48
  call i32 @putchar(i32 %d5)
  %n5 = add i32 %n4, %z5
  %c6 = fcmp one double %a, %b
  %z6 = zext i1 %c6 to i32
  %d6 = add i32 %z6, 48
  call i32 @putchar(i32 %d6)
  %n6 = add i32 %n5, %z6
  %c7 = fcmp ord double %a, %b
  %z7 = zext i1 %c7 to i32
  %d7 = add i32 %z7, 48
  call i32 @putchar(i32 %d7)
  %n7 = add i32 %n6, %z7
  %c8 = fcmp ueq double %a, %b
  %z8 = zext i1 %c8 to i32
  %d8 = add i32 %z8, 48
  call i32 @putchar(i32 %d8)
  %n8 = add i32 %n7, %z8
  %c9 = fcmp ugt double %a, %b
  %z9 = zext i1 %c9 to i32
  %d9 = add i32 %z9, 48
  call i32 @putchar(i32 %d9)
  %n9 = add i32 %n8, %z9
  %c10 = fcmp uge double %a, %b
  %z10 = zext i1 %c10 to i32
  %d10 = add i32 %z10, 48
  call i32 @putchar(i32 %d10)
  %n10 = add i32 %n9, %z10
  %c11 = fcmp ult double %a, %b
  %z11 = zext i1 %c11 to i32
  %d11 = add i32 %z11, 48
  call i32 @putchar(i32 %d11)
  %n11 = add i32 %n10, %z11
  %c12 = fcmp ule double %a, %b
  %z12 = zext i1 %c12 to i32
  %d12 = add i32 %z12, 48
  call i32 @putchar(i32 %d12)
  %n12 = add i32 %n11, %z12
  %c13 = fcmp une double %a, %b
  %z13 = zext i1 %c13 to i32
  %d13 = add i32 %z13, 48
  call i32 @putchar(i32 %d13)
  %n13 = add i32 %n12, %z13
  %c14 = fcmp uno double %a, %b
  %z14 = zext i1 %c14 to i32
  %d14 = add i32 %z14, 48
  call i32 @putchar(i32 %d14)
  %n14 = add i32 %n13, %z14
  %c15 = fcmp true double %a, %b
  %z15 = zext i1 %c15 to i32
  %d15 = add i32 %z15, 48
  call i32 @putchar(i32 %d15)
  %n15 = add i32 %n14, %z15
  call i32 @putchar(i32 10)
  ret i32 %n15
}

; Prints one 0/1 digit per fcmp predicate, in the order false oeq ogt oge olt ole one ord ueq ugt uge ult
; ule une uno true, and returns how many held.
define internal i32 @row_f(float %a, float %b) {
entry:
  %c0 = fcmp false float %a, %b
  %z0 = zext i1 %c0 to i32
  %d0 = add i32 %z0, 48
  call i32 @putchar(i32 %d0)
  %n0 = add i32 0, %z0
  %c1 = fcmp oeq float %a, %b
  %z1 = zext i1 %c1 to i32
  %d1 = add i32 %z1, 48
  call i32 @putchar(i32 %d1)
  %n1 = add i32 %n0, %z1
  %c2 = fcmp ogt float %a, %b
  %z2 = zext i1 %c2 to i32
  %d2 = add i32 %z2, 48
  call i32 @putchar(i32 %d2)
  %n2 = add i32 %n1, %z2
  %c3 = fcmp oge float %a, %b
  %z3 = zext i1 %c3 to i32
  %d3 = add i32 %z3, 48
  call i32 @putchar(i32 %d3)
  %n3 = add i32 %n2, %z3
  %c4 = fcmp olt float %a, %b
  %z4 = zext i1 %c4 to i32
  %d4 = add i32 %z4, 48
  call i32 @putchar(i32 %d4)
  %n4 = add i32 %n3, %z4
  %c5 = fcmp ole float %a, %b
  %z5 = zext i1 %c5 to i32
  %d5 = add i32 %z5, 48
  call i32 @putchar(i32 %d5)
  %n5 = add i32 %n4, %z5
  %c6 = fcmp one float %a, %b
  %z6 = zext i1 %c6 to i32
  %d6 = add i32 %z6, 48
  call i32 @putchar(i32 %d6)
  %n6 = add i32 %n5, %z6
  %c7 = fcmp ord float %a, %b
  %z7 = zext i1 %c7 to i32
  %d7 = add i32 %z7, 48
  call i32 @putchar(i32 %d7)
  %n7 = add i32 %n6, %z7
  %c8 = fcmp ueq float %a, %b
  %z8 = zext i1 %c8 to i32
  %d8 = add i32 %z8, 48
  call i32 @putchar(i32 %d8)
  %n8 = add i32 %n7, %z8
  %c9 = fcmp ugt float %a, %b
  %z9 = zext i1 %c9 to i32
  %d9 = add i32 %z9, 48
  call i32 @putchar(i32 %d9)
  %n9 = add i32 %n8, %z9
  %c10 = fcmp uge float %a, %b
  %z10 = zext i1 %c10 to i32
  %d10 = add i32 %z10, 48
  call i32 @putchar(i32 %d10)
  %n10 = add i32 %n9, %z10
  %c11 = fcmp ult float %a, %b
  %z11 = zext i1 %c11 to i32
  %d11 = add i32 %z11, 48
  call i32 @putchar(i32 %d11)
  %n11 = add i32 %n10, %z11
  %c12 = fcmp ule float %a, %b
  %z12 = zext i1 %c12 to i32
  %d12 = add i32 %z12, 48
  call i32 @putchar(i32 %d12)
  %n12 = add i32 %n11, %z12
  %c13 = fcmp une float %a, %b
  %z13 = zext i1 %c13 to i32
  %d13 = add i32 %z13, 48
  call i32 @putchar(i32 %d13)
  %n13 = add i32 %n12, %z13
  %c14 = fcmp uno float %a, %b
  %z14 = zext i1 %c14 to i32
  %d14 = add i32 %z14, 48
  call i32 @putchar(i32 %d14)
  %n14 = add i32 %n13, %z14
  %c15 = fcmp true float %a, %b
  %z15 = zext i1 %c15 to i32
  %d15 = add i32 %z15, 48
  call i32 @putchar(i32 %d15)
  %n15 = add i32 %n14, %z15
  call i32 @putchar(i32 10)
  ret i32 %n15
}

; max(a, b) that returns b when either is NaN, via an unordered comparison.
define internal double @max_or_b(double %a, double %b) {
  %gt = fcmp ogt double %a, %b
  %r = select i1 %gt, double %a, double %b
  ret double %r
}

define i32 @main() {
entry:
  %zd = load double, ptr @zero_d
  %zf = load float, ptr @zero_f
  %nan_d = fdiv double %zd, %zd
  %nan_f = fdiv float %zf, %zf
  %inf_d = fdiv double 1.0, %zd
  %inf_f = fdiv float 1.0, %zf
  %ninf_d = fneg double %inf_d
  %negz_d = fneg double %zd
  %negz_f = fneg float %zf
  %t0 = call i32 @row_d(double 1.0, double 2.0)
  %s0 = add i32 0, %t0
  %t1 = call i32 @row_d(double 2.0, double 2.0)
  %s1 = add i32 %s0, %t1
  %t2 = call i32 @row_d(double 2.0, double 1.0)
  %s2 = add i32 %s1, %t2
  %t3 = call i32 @row_d(double %nan_d, double 1.0)
  %s3 = add i32 %s2, %t3
  %t4 = call i32 @row_d(double 1.0, double %nan_d)
  %s4 = add i32 %s3, %t4
  %t5 = call i32 @row_d(double %nan_d, double %nan_d)
  %s5 = add i32 %s4, %t5
  %t6 = call i32 @row_d(double %negz_d, double %zd)
  %s6 = add i32 %s5, %t6
  %t7 = call i32 @row_d(double %inf_d, double %ninf_d)
  %s7 = add i32 %s6, %t7
  %t8 = call i32 @row_d(double %inf_d, double %inf_d)
  %s8 = add i32 %s7, %t8
  %t9 = call i32 @row_f(float 1.5, float -1.5)
  %s9 = add i32 %s8, %t9
  %t10 = call i32 @row_f(float %nan_f, float %nan_f)
  %s10 = add i32 %s9, %t10
  %t11 = call i32 @row_f(float %negz_f, float %zf)
  %s11 = add i32 %s10, %t11
  %t12 = call i32 @row_f(float %inf_f, float %nan_f)
  %s12 = add i32 %s11, %t12
  %t13 = call i32 @row_f(float -3.0, float %inf_f)
  %s13 = add i32 %s12, %t13
  %m1 = call double @max_or_b(double %nan_d, double 5.0)
  %m2 = call double @max_or_b(double 7.0, double %nan_d)
  %m3 = call double @max_or_b(double 7.0, double 5.0)
  ; m2 is NaN: its sign differs between x86-64 and aarch64, so only its NaN-ness is printed.
  %m2_nan = fcmp uno double %m2, %m2
  %m1_i = fptosi double %m1 to i32
  %m3_i = fptosi double %m3 to i32
  %m2_i = zext i1 %m2_nan to i32
  %o1 = add i32 %m1_i, 48
  %o2 = add i32 %m2_i, 48
  %o3 = add i32 %m3_i, 48
  call i32 @putchar(i32 %o1)
  call i32 @putchar(i32 %o2)
  call i32 @putchar(i32 %o3)
  call i32 @putchar(i32 10)
  %status = and i32 %s13, 127
  ret i32 %status
}
