; From llvm/test/CodeGen/X86/patchpoint.ll (trivial_patchpoint_codegen,
; large_target_address_patchpoint_codegen): targets computed by `inttoptr` instructions, which llc
; folds to constants. X86 only: AArch64's call sequence reaches 48 bits (patchmap refuses more).
; targets: x86_64
define i64 @trivial_patchpoint_codegen(i64 %p1, i64 %p2, i64 %p3, i64 %p4) {
entry:
  %resolveCall2 = inttoptr i64 -559038736 to ptr
  %result = tail call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 2, i32 15, ptr %resolveCall2, i32 4, i64 %p1, i64 %p2, i64 %p3, i64 %p4)
  %resolveCall3 = inttoptr i64 -559038737 to ptr
  tail call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 3, i32 15, ptr %resolveCall3, i32 2, i64 %p1, i64 %result)
  ret i64 %result
}

define i64 @large_target_address_patchpoint_codegen() {
entry:
  %resolveCall2 = inttoptr i64 6153737369414576827 to ptr
  %result = tail call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 4, i32 15, ptr %resolveCall2, i32 0)
  ret i64 %result
}

declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
