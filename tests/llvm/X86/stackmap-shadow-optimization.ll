; origin: llvm/llvm-project llvm/test/CodeGen/X86/stackmap-shadow-optimization.ll at 3e239e56014cddfefc6710016f64550ec62d665a (full-line comments other than RUN lines removed)
; RUN: llc -combiner-topological-sorting < %s -mtriple=x86_64-apple-darwin -mcpu=corei7 | FileCheck %s

define void @shadow_optimization_test() {
entry:
  call void @bar()
  tail call void (i64, i32, ...) @llvm.experimental.stackmap(i64 0, i32 8)
  call void @bar()
  call void @bar()
  ret void
}

declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @bar()
