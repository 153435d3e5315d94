; Patch points returning vectors, with vector arguments and a live vector, against llc-19's
; records (tests/patchpoints/vectors.rs). The targets are null: llc-19 crashes on x86-64 when a
; vector patch point has a function target (in StackMaps::parseRegisterLiveOutMask).

define <4 x i32> @r4(<4 x i32> %a, <2 x double> %b, i64 %c) {
entry:
  %result = tail call <4 x i32> (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.v4i32(i64 5, i32 20, ptr null, i32 3, <4 x i32> %a, <2 x double> %b, i64 %c, <4 x i32> %a)
  ret <4 x i32> %result
}
define <2 x double> @r2() {
entry:
  %result = tail call <2 x double> (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.v2f64(i64 6, i32 20, ptr null, i32 0)
  ret <2 x double> %result
}
define <16 x i8> @r16() {
entry:
  %result = tail call <16 x i8> (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.v16i8(i64 7, i32 20, ptr null, i32 0)
  ret <16 x i8> %result
}
declare <4 x i32> @llvm.experimental.patchpoint.v4i32(i64, i32, ptr, i32, ...)
declare <2 x double> @llvm.experimental.patchpoint.v2f64(i64, i32, ptr, i32, ...)
declare <16 x i8> @llvm.experimental.patchpoint.v16i8(i64, i32, ptr, i32, ...)
