; After llvm/test/CodeGen/AArch64/arm64-anyregcc.ll and X86/anyregcc.ll: anyregcc patch points
; whose target is an `inttoptr` instruction of a 48-bit constant (both targets reach it), with
; arguments and live values recorded.
; targets: x86_64 aarch64
define i64 @anyreg_target(i64 %a, i64 %b, i64 %c) {
entry:
  %f = inttoptr i64 244837814094590 to ptr
  %r = tail call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 12, i32 16, ptr %f, i32 2, i64 %a, i64 %b, i64 %c, i32 7)
  %g = bitcast ptr %f to ptr
  tail call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 13, i32 20, ptr %g, i32 0, i64 %r)
  ret i64 %r
}

declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
