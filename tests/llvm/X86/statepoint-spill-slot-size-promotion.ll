; origin: llvm/llvm-project llvm/test/CodeGen/X86/statepoint-spill-slot-size-promotion.ll at 0c33486e71b4c44a4f85fc52706a02d00604e48c (full-line comments other than RUN lines removed)
; RUN: llc -verify-machineinstrs < %s | FileCheck %s --check-prefixes=CHECK
target datalayout = "e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-win64"

define i1 @test_spill_slot_size(i1 %a1, i2 %a2, i7 %a7, i8 %a8, i9 %a9, i15 %a15, i16 %a16, i32 %a32, i64 %a64, i128 %a128, ptr addrspace(1) %obj1) gc "statepoint-example" {

entry:
  %safepoint_token = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) inttoptr (i64 140727162896504 to ptr), i32 0, i32 0, i32 0, i32 0)
      [ "deopt"(i1 %a1, i2 %a2, i7 %a7, i8 %a8, i9 %a9, i15 %a15, i16 %a16, i32 %a32, i64 %a64, i128 %a128, ptr addrspace(1) %obj1) ]
  ret i1 %a1
}

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
