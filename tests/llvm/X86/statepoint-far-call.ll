; origin: llvm/llvm-project llvm/test/CodeGen/X86/statepoint-far-call.ll at 3e239e56014cddfefc6710016f64550ec62d665a (full-line comments other than RUN lines removed)
; RUN: llc -combiner-topological-sorting -verify-machineinstrs < %s | FileCheck %s

target datalayout = "e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-win64"

define void @test_far_call() gc "statepoint-example" {

entry:
  %safepoint_token = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) inttoptr (i64 140727162896504 to ptr), i32 0, i32 0, i32 0, i32 0)
  ret void
}

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)

