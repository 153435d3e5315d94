; Floating-point intrinsics with integer operands or results, as clang-19, rustc (`as` casts are
; `fptosi.sat`) and JIT front ends emit them: saturating conversions (signed and unsigned, 8 to 64
; bits and i24, vectors), `is.fpclass` with single classes and the masks `isnan`, `isinf`,
; `isfinite`, `isnormal` and `fpclassify` use, of double, float and half, `powi`, `ldexp`,
; `lround`/`llround`/`lrint`/`llrint` (calls of the C runtime's routines).
source_filename = "float_int_intrinsics.ll"

@values = private constant [12 x double] [double 0x7FF8000000000000, double 0x7FF0000000000001, double 0x7FF0000000000000, double 0xFFF0000000000000, double 0.0, double -0.0, double 4.9406564584124654e-324, double -4.9406564584124654e-324, double 1.0, double -3.7, double 1.0e20, double 255.9]
@conv = private constant [34 x i8] c"conv %lld %lld %lld %lld %lld %u\0A\00"
@cls = private constant [25 x i8] c"class %d %d %d %d %d %d\0A\00"
@rnd = private constant [34 x i8] c"round %.17g %.9g %.17g %.9g %.5g\0A\00"
@int = private constant [25 x i8] c"int %lld %lld %lld %lld\0A\00"

declare i32 @printf(ptr, ...)
declare i32 @llvm.fptosi.sat.i32.f64(double)
declare i8 @llvm.fptosi.sat.i8.f64(double)
declare i64 @llvm.fptosi.sat.i64.f64(double)
declare i24 @llvm.fptosi.sat.i24.f32(float)
declare i8 @llvm.fptoui.sat.i8.f64(double)
declare i32 @llvm.fptoui.sat.i32.f32(float)
declare <2 x i16> @llvm.fptosi.sat.v2i16.v2f64(<2 x double>)
declare i1 @llvm.is.fpclass.f64(double, i32)
declare i1 @llvm.is.fpclass.f32(float, i32)
declare i1 @llvm.is.fpclass.f16(half, i32)
declare <2 x i1> @llvm.is.fpclass.v2f64(<2 x double>, i32)
declare double @llvm.powi.f64.i32(double, i32)
declare float @llvm.powi.f32.i32(float, i32)
declare double @llvm.ldexp.f64.i32(double, i32)
declare float @llvm.ldexp.f32.i32(float, i32)
declare half @llvm.powi.f16.i32(half, i32)
declare i64 @llvm.lround.i64.f64(double)
declare i32 @llvm.lround.i32.f32(float)
declare i64 @llvm.llround.i64.f64(double)
declare i64 @llvm.lrint.i64.f64(double)
declare i64 @llvm.llrint.i64.f32(float)

define internal void @conversions(double %x) {
entry:
  %a = call i32 @llvm.fptosi.sat.i32.f64(double %x)
  %b = call i8 @llvm.fptosi.sat.i8.f64(double %x)
  %c = call i64 @llvm.fptosi.sat.i64.f64(double %x)
  %f = fptrunc double %x to float
  %d = call i24 @llvm.fptosi.sat.i24.f32(float %f)
  %e = call i8 @llvm.fptoui.sat.i8.f64(double %x)
  %g = call i32 @llvm.fptoui.sat.i32.f32(float %f)
  %a64 = sext i32 %a to i64
  %b64 = sext i8 %b to i64
  %d64 = sext i24 %d to i64
  %e64 = zext i8 %e to i64
  %p = call i32 (ptr, ...) @printf(ptr @conv, i64 %a64, i64 %b64, i64 %c, i64 %d64, i64 %e64, i32 %g)
  %neg = fneg double %x
  %v0 = insertelement <2 x double> undef, double %x, i32 0
  %v = insertelement <2 x double> %v0, double %neg, i32 1
  %vs = call <2 x i16> @llvm.fptosi.sat.v2i16.v2f64(<2 x double> %v)
  %vs0 = extractelement <2 x i16> %vs, i32 0
  %vs1 = extractelement <2 x i16> %vs, i32 1
  %w0 = sext i16 %vs0 to i64
  %w1 = sext i16 %vs1 to i64
  %q = call i32 (ptr, ...) @printf(ptr @int, i64 %w0, i64 %w1, i64 0, i64 0)
  ret void
}

define internal void @classes(double %x) {
entry:
  %s0 = call i1 @llvm.is.fpclass.f64(double %x, i32 1)
  %z0 = zext i1 %s0 to i32
  %h0 = shl i32 %z0, 0
  %acc0 = or i32 0, %h0
  %s1 = call i1 @llvm.is.fpclass.f64(double %x, i32 2)
  %z1 = zext i1 %s1 to i32
  %h1 = shl i32 %z1, 1
  %acc1 = or i32 %acc0, %h1
  %s2 = call i1 @llvm.is.fpclass.f64(double %x, i32 4)
  %z2 = zext i1 %s2 to i32
  %h2 = shl i32 %z2, 2
  %acc2 = or i32 %acc1, %h2
  %s3 = call i1 @llvm.is.fpclass.f64(double %x, i32 8)
  %z3 = zext i1 %s3 to i32
  %h3 = shl i32 %z3, 3
  %acc3 = or i32 %acc2, %h3
  %s4 = call i1 @llvm.is.fpclass.f64(double %x, i32 16)
  %z4 = zext i1 %s4 to i32
  %h4 = shl i32 %z4, 4
  %acc4 = or i32 %acc3, %h4
  %s5 = call i1 @llvm.is.fpclass.f64(double %x, i32 32)
  %z5 = zext i1 %s5 to i32
  %h5 = shl i32 %z5, 5
  %acc5 = or i32 %acc4, %h5
  %s6 = call i1 @llvm.is.fpclass.f64(double %x, i32 64)
  %z6 = zext i1 %s6 to i32
  %h6 = shl i32 %z6, 6
  %acc6 = or i32 %acc5, %h6
  %s7 = call i1 @llvm.is.fpclass.f64(double %x, i32 128)
  %z7 = zext i1 %s7 to i32
  %h7 = shl i32 %z7, 7
  %acc7 = or i32 %acc6, %h7
  %s8 = call i1 @llvm.is.fpclass.f64(double %x, i32 256)
  %z8 = zext i1 %s8 to i32
  %h8 = shl i32 %z8, 8
  %acc8 = or i32 %acc7, %h8
  %s9 = call i1 @llvm.is.fpclass.f64(double %x, i32 512)
  %z9 = zext i1 %s9 to i32
  %h9 = shl i32 %z9, 9
  %acc9 = or i32 %acc8, %h9
  %f = fptrunc double %x to float
  %hf = fptrunc double %x to half
  %c0 = call i1 @llvm.is.fpclass.f64(double %x, i32 3)
  %fc0 = call i1 @llvm.is.fpclass.f32(float %f, i32 3)
  %hc0 = call i1 @llvm.is.fpclass.f16(half %hf, i32 3)
  %c1 = call i1 @llvm.is.fpclass.f64(double %x, i32 516)
  %fc1 = call i1 @llvm.is.fpclass.f32(float %f, i32 516)
  %hc1 = call i1 @llvm.is.fpclass.f16(half %hf, i32 516)
  %c2 = call i1 @llvm.is.fpclass.f64(double %x, i32 504)
  %fc2 = call i1 @llvm.is.fpclass.f32(float %f, i32 504)
  %hc2 = call i1 @llvm.is.fpclass.f16(half %hf, i32 504)
  %c3 = call i1 @llvm.is.fpclass.f64(double %x, i32 264)
  %fc3 = call i1 @llvm.is.fpclass.f32(float %f, i32 264)
  %hc3 = call i1 @llvm.is.fpclass.f16(half %hf, i32 264)
  %c4 = call i1 @llvm.is.fpclass.f64(double %x, i32 144)
  %fc4 = call i1 @llvm.is.fpclass.f32(float %f, i32 144)
  %hc4 = call i1 @llvm.is.fpclass.f16(half %hf, i32 144)
  %c5 = call i1 @llvm.is.fpclass.f64(double %x, i32 96)
  %fc5 = call i1 @llvm.is.fpclass.f32(float %f, i32 96)
  %hc5 = call i1 @llvm.is.fpclass.f16(half %hf, i32 96)
  %c6 = call i1 @llvm.is.fpclass.f64(double %x, i32 1020)
  %fc6 = call i1 @llvm.is.fpclass.f32(float %f, i32 1020)
  %hc6 = call i1 @llvm.is.fpclass.f16(half %hf, i32 1020)
  %c7 = call i1 @llvm.is.fpclass.f64(double %x, i32 540)
  %fc7 = call i1 @llvm.is.fpclass.f32(float %f, i32 540)
  %hc7 = call i1 @llvm.is.fpclass.f16(half %hf, i32 540)
  %cz0 = zext i1 %c0 to i32
  %cs0 = shl i32 %cz0, 0
  %ca0 = or i32 0, %cs0
  %fcz0 = zext i1 %fc0 to i32
  %fcs0 = shl i32 %fcz0, 8
  %fca0 = or i32 %ca0, %fcs0
  %hcz0 = zext i1 %hc0 to i32
  %hcs0 = shl i32 %hcz0, 16
  %hca0 = or i32 %fca0, %hcs0
  %cz1 = zext i1 %c1 to i32
  %cs1 = shl i32 %cz1, 1
  %ca1 = or i32 %hca0, %cs1
  %fcz1 = zext i1 %fc1 to i32
  %fcs1 = shl i32 %fcz1, 9
  %fca1 = or i32 %ca1, %fcs1
  %hcz1 = zext i1 %hc1 to i32
  %hcs1 = shl i32 %hcz1, 17
  %hca1 = or i32 %fca1, %hcs1
  %cz2 = zext i1 %c2 to i32
  %cs2 = shl i32 %cz2, 2
  %ca2 = or i32 %hca1, %cs2
  %fcz2 = zext i1 %fc2 to i32
  %fcs2 = shl i32 %fcz2, 10
  %fca2 = or i32 %ca2, %fcs2
  %hcz2 = zext i1 %hc2 to i32
  %hcs2 = shl i32 %hcz2, 18
  %hca2 = or i32 %fca2, %hcs2
  %cz3 = zext i1 %c3 to i32
  %cs3 = shl i32 %cz3, 3
  %ca3 = or i32 %hca2, %cs3
  %fcz3 = zext i1 %fc3 to i32
  %fcs3 = shl i32 %fcz3, 11
  %fca3 = or i32 %ca3, %fcs3
  %hcz3 = zext i1 %hc3 to i32
  %hcs3 = shl i32 %hcz3, 19
  %hca3 = or i32 %fca3, %hcs3
  %cz4 = zext i1 %c4 to i32
  %cs4 = shl i32 %cz4, 4
  %ca4 = or i32 %hca3, %cs4
  %fcz4 = zext i1 %fc4 to i32
  %fcs4 = shl i32 %fcz4, 12
  %fca4 = or i32 %ca4, %fcs4
  %hcz4 = zext i1 %hc4 to i32
  %hcs4 = shl i32 %hcz4, 20
  %hca4 = or i32 %fca4, %hcs4
  %cz5 = zext i1 %c5 to i32
  %cs5 = shl i32 %cz5, 5
  %ca5 = or i32 %hca4, %cs5
  %fcz5 = zext i1 %fc5 to i32
  %fcs5 = shl i32 %fcz5, 13
  %fca5 = or i32 %ca5, %fcs5
  %hcz5 = zext i1 %hc5 to i32
  %hcs5 = shl i32 %hcz5, 21
  %hca5 = or i32 %fca5, %hcs5
  %cz6 = zext i1 %c6 to i32
  %cs6 = shl i32 %cz6, 6
  %ca6 = or i32 %hca5, %cs6
  %fcz6 = zext i1 %fc6 to i32
  %fcs6 = shl i32 %fcz6, 14
  %fca6 = or i32 %ca6, %fcs6
  %hcz6 = zext i1 %hc6 to i32
  %hcs6 = shl i32 %hcz6, 22
  %hca6 = or i32 %fca6, %hcs6
  %cz7 = zext i1 %c7 to i32
  %cs7 = shl i32 %cz7, 7
  %ca7 = or i32 %hca6, %cs7
  %fcz7 = zext i1 %fc7 to i32
  %fcs7 = shl i32 %fcz7, 15
  %fca7 = or i32 %ca7, %fcs7
  %hcz7 = zext i1 %hc7 to i32
  %hcs7 = shl i32 %hcz7, 23
  %hca7 = or i32 %fca7, %hcs7
  %neg = fneg double %x
  %v0 = insertelement <2 x double> undef, double %x, i32 0
  %v = insertelement <2 x double> %v0, double %neg, i32 1
  %vc = call <2 x i1> @llvm.is.fpclass.v2f64(<2 x double> %v, i32 24)
  %vc0 = extractelement <2 x i1> %vc, i32 0
  %vc1 = extractelement <2 x i1> %vc, i32 1
  %vz0 = zext i1 %vc0 to i32
  %vz1 = zext i1 %vc1 to i32
  %p = call i32 (ptr, ...) @printf(ptr @cls, i32 %acc9, i32 %hca7, i32 %vz0, i32 %vz1, i32 0, i32 0)
  ret void
}

define internal void @routines(double %x, i32 %n) {
entry:
  %f = fptrunc double %x to float
  %p1 = call double @llvm.powi.f64.i32(double %x, i32 %n)
  %p2 = call float @llvm.powi.f32.i32(float %f, i32 %n)
  %l1 = call double @llvm.ldexp.f64.i32(double %x, i32 %n)
  %l2 = call float @llvm.ldexp.f32.i32(float %f, i32 %n)
  %h = fptrunc double %x to half
  %ph = call half @llvm.powi.f16.i32(half %h, i32 3)
  %p2d = fpext float %p2 to double
  %l2d = fpext float %l2 to double
  %phd = fpext half %ph to double
  %pr = call i32 (ptr, ...) @printf(ptr @rnd, double %p1, double %p2d, double %l1, double %l2d, double %phd)
  %r1 = call i64 @llvm.lround.i64.f64(double %x)
  %r2 = call i32 @llvm.lround.i32.f32(float %f)
  %r2w = sext i32 %r2 to i64
  %r3 = call i64 @llvm.lrint.i64.f64(double %x)
  %r4 = call i64 @llvm.llrint.i64.f32(float %f)
  %r5 = call i64 @llvm.llround.i64.f64(double %x)
  %r15 = add i64 %r1, %r5
  %pi = call i32 (ptr, ...) @printf(ptr @int, i64 %r15, i64 %r2w, i64 %r3, i64 %r4)
  ret void
}

define i32 @main() #0 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr double, ptr @values, i64 %i
  %x = load double, ptr %p
  call void @conversions(double %x)
  call void @classes(double %x)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 12
  br i1 %done, label %rounding, label %loop

rounding:
  call void @routines(double 1.5, i32 10)
  call void @routines(double 2.5, i32 -3)
  call void @routines(double -2.5, i32 7)
  call void @routines(double 0.1, i32 0)
  call void @routines(double 3.5, i32 -1074)
  ret i32 0
}

attributes #0 = { noinline }
