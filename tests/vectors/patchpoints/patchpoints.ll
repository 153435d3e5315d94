; Patch points with vector arguments and results (tests/patchpoints/vectors.rs): each region calls
; its target by the C convention, the vectors in vector registers (XMM / Q, a 64-bit one in an
; XMM's low half / a D register), the result in the first one. main prints every lane.

declare i32 @printf(ptr, ...)
@fmt = private constant [25 x i8] c"%d %d %d %d | %.2f %.2f\0A\00"
@fmt8 = private constant [12 x i8] c"%d %d %.2f\0A\00"

define <4 x i32> @vadd(<4 x i32> %a, <4 x i32> %b) noinline {
  %s = add <4 x i32> %a, %b
  ret <4 x i32> %s
}

define <2 x double> @vscale(<2 x double> %a, double %k, i64 %n) noinline {
  %splat.0 = insertelement <2 x double> poison, double %k, i64 0
  %splat = shufflevector <2 x double> %splat.0, <2 x double> poison, <2 x i32> zeroinitializer
  %m = fmul <2 x double> %a, %splat
  %nf = sitofp i64 %n to double
  %r = insertelement <2 x double> %m, double %nf, i64 1
  ret <2 x double> %r
}

define <2 x float> @vswap(<2 x i32> %a, <2 x float> %b) noinline {
  %f = sitofp <2 x i32> %a to <2 x float>
  %s = fadd <2 x float> %f, %b
  %r = shufflevector <2 x float> %s, <2 x float> poison, <2 x i32> <i32 1, i32 0>
  ret <2 x float> %r
}

define i32 @main() {
  %a = insertelement <4 x i32> <i32 1, i32 2, i32 3, i32 4>, i32 40, i64 3
  %r = call <4 x i32> (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.v4i32(i64 1, i32 20, ptr @vadd, i32 2, <4 x i32> %a, <4 x i32> <i32 100, i32 200, i32 300, i32 400>, <4 x i32> %a)
  %d = call <2 x double> (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.v2f64(i64 2, i32 20, ptr @vscale, i32 3, <2 x double> <double 1.5, double 2.5>, double 4.0, i64 7)
  %w = call <2 x float> (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.v2f32(i64 3, i32 20, ptr @vswap, i32 2, <2 x i32> <i32 5, i32 -9>, <2 x float> <float 0.25, float 0.5>)
  %r0 = extractelement <4 x i32> %r, i64 0
  %r1 = extractelement <4 x i32> %r, i64 1
  %r2 = extractelement <4 x i32> %r, i64 2
  %r3 = extractelement <4 x i32> %r, i64 3
  %d0 = extractelement <2 x double> %d, i64 0
  %d1 = extractelement <2 x double> %d, i64 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %r0, i32 %r1, i32 %r2, i32 %r3, double %d0, double %d1)
  %w0 = extractelement <2 x float> %w, i64 0
  %w1 = extractelement <2 x float> %w, i64 1
  %w0i = fptosi float %w0 to i32
  %w1d = fpext float %w1 to double
  call i32 (ptr, ...) @printf(ptr @fmt8, i32 %w0i, i32 0, double %w1d)
  ret i32 0
}

declare <4 x i32> @llvm.experimental.patchpoint.v4i32(i64, i32, ptr, i32, ...)
declare <2 x double> @llvm.experimental.patchpoint.v2f64(i64, i32, ptr, i32, ...)
declare <2 x float> @llvm.experimental.patchpoint.v2f32(i64, i32, ptr, i32, ...)
