; half arguments and live values of patch points, and a patch point returning half (the form of
; LLVM's AArch64/arm64-patchpoint.ll generic_patchpoint_f16): sizes as llc-19 records them.
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare half @llvm.experimental.patchpoint.f16(i64, i32, ptr, i32, ...)
define half @f(half %a, half %b) {
  %s = fadd half %a, %b
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 16, ptr null, i32 0, half %a, half %s, half 0xH3C00)
  %r = call half (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.f16(i64 5, i32 16, ptr null, i32 0, half %s)
  %t = fadd half %r, %s
  ret half %t
}
