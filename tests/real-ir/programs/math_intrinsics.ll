; The C library's functions as intrinsics (`llvm.sin.f64` and kin), as clang-19 writes calls of
; `sin`, `pow`, ... under -fno-math-errno (-ffast-math, or a target without errno) and as JIT front
; ends' IRBuilders emit them: calls of `sin`/`sinf` and kin, as llc-19 makes of them on both targets.
; double, float, half (computed in float), vectors lane by lane, and a module that also declares
; `@sin` itself.
source_filename = "math_intrinsics.ll"

@inputs = private constant [3 x double] [double 0.5, double 2.25, double 10.0]
@fmt = private constant [37 x i8] c"%.17g %.17g %.17g %.17g %.17g %.17g\0A\00"
@ffmt = private constant [31 x i8] c"%.9g %.9g %.9g %.9g %.9g %.9g\0A\00"

declare i32 @printf(ptr, ...)
declare double @sin(double)
declare double @llvm.sin.f64(double)
declare double @llvm.cos.f64(double)
declare double @llvm.tan.f64(double)
declare double @llvm.exp.f64(double)
declare double @llvm.exp2.f64(double)
declare double @llvm.log.f64(double)
declare double @llvm.log2.f64(double)
declare double @llvm.log10.f64(double)
declare double @llvm.pow.f64(double, double)
declare float @llvm.sin.f32(float)
declare float @llvm.cos.f32(float)
declare float @llvm.exp.f32(float)
declare float @llvm.log.f32(float)
declare float @llvm.pow.f32(float, float)
declare half @llvm.exp2.f16(half)
declare <2 x double> @llvm.exp.v2f64(<2 x double>)
declare <2 x float> @llvm.pow.v2f32(<2 x float>, <2 x float>)

define internal void @doubles(double %x) {
entry:
  %sin = call double @llvm.sin.f64(double %x)
  %cos = call double @llvm.cos.f64(double %x)
  %tan = call double @llvm.tan.f64(double %x)
  %exp = call double @llvm.exp.f64(double %x)
  %exp2 = call double @llvm.exp2.f64(double %x)
  %log = call double @llvm.log.f64(double %x)
  %p1 = call i32 (ptr, ...) @printf(ptr @fmt, double %sin, double %cos, double %tan, double %exp, double %exp2, double %log)
  %log2 = call double @llvm.log2.f64(double %x)
  %log10 = call double @llvm.log10.f64(double %x)
  %pow = call double @llvm.pow.f64(double %x, double 1.5)
  %libsin = call double @sin(double %x)
  %v0 = insertelement <2 x double> undef, double %x, i32 0
  %v = insertelement <2 x double> %v0, double %log, i32 1
  %ve = call <2 x double> @llvm.exp.v2f64(<2 x double> %v)
  %e0 = extractelement <2 x double> %ve, i32 0
  %e1 = extractelement <2 x double> %ve, i32 1
  %p2 = call i32 (ptr, ...) @printf(ptr @fmt, double %log2, double %log10, double %pow, double %libsin, double %e0, double %e1)
  ret void
}

define internal void @floats(double %d) {
entry:
  %x = fptrunc double %d to float
  %sin = call float @llvm.sin.f32(float %x)
  %cos = call float @llvm.cos.f32(float %x)
  %exp = call float @llvm.exp.f32(float %x)
  %log = call float @llvm.log.f32(float %x)
  %pow = call float @llvm.pow.f32(float %x, float 0.75)
  %h = fptrunc double %d to half
  %hexp2 = call half @llvm.exp2.f16(half %h)
  %v0 = insertelement <2 x float> undef, float %x, i32 0
  %v = insertelement <2 x float> %v0, float %exp, i32 1
  %vp = call <2 x float> @llvm.pow.v2f32(<2 x float> %v, <2 x float> <float 2.0, float 0.5>)
  %vp1 = extractelement <2 x float> %vp, i32 1
  %s = fpext float %sin to double
  %c = fpext float %cos to double
  %e = fpext float %exp to double
  %l = fpext float %log to double
  %p = fpext float %pow to double
  %he = fpext half %hexp2 to double
  %p1 = call i32 (ptr, ...) @printf(ptr @ffmt, double %s, double %c, double %e, double %l, double %p, double %he)
  %vpd = fpext float %vp1 to double
  %p2 = call i32 (ptr, ...) @printf(ptr @ffmt, double %vpd, double %vpd, double %vpd, double %vpd, double %vpd, double %vpd)
  ret void
}

define i32 @main() {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr double, ptr @inputs, i64 %i
  %x = load double, ptr %p
  call void @doubles(double %x)
  call void @floats(double %x)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 3
  br i1 %done, label %exit, label %loop

exit:
  ret i32 0
}
