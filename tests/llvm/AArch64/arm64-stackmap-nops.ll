; origin: llvm/llvm-project llvm/test/CodeGen/AArch64/arm64-stackmap-nops.ll at 619d320ed588ca1460040669d76b44e01035feff (full-line comments other than RUN lines removed)
; RUN: llc < %s -mtriple=arm64-apple-darwin | FileCheck %s

define void @test_shadow_optimization() {
entry:
  tail call void (i64, i32, ...) @llvm.experimental.stackmap(i64  0, i32  16)
  ret void
}

declare void @llvm.experimental.stackmap(i64, i32, ...)
