; origin: llvm/llvm-project llvm/test/CodeGen/AArch64/stackmap-liveness.ll at bffd38809346597f411e078e830dd61751dfba64 (full-line comments other than RUN lines removed)
; RUN: llc < %s -mtriple=aarch64-apple-darwin | FileCheck %s

target datalayout = "e-m:o-i64:64-i128:128-n32:64-S128"


define i64 @stackmap_liveness(i1 %c) {
  %1 = select i1 %c, i64 1, i64 2
  call anyregcc void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 32, ptr null, i32 0)
  ret i64 %1
}

declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
