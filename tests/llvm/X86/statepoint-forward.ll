; origin: llvm/llvm-project llvm/test/CodeGen/X86/statepoint-forward.ll at 3e239e56014cddfefc6710016f64550ec62d665a (full-line comments other than RUN lines removed)
; RUN: opt -O3 -S < %s | FileCheck --check-prefix=CHECK-OPT %s
; RUN: llc -combiner-topological-sorting -verify-machineinstrs < %s | FileCheck --check-prefix=CHECK-LLC %s

target datalayout = "e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @func() readonly

define i1 @test_load_forward(ptr addrspace(1) %p) gc "statepoint-example" {
entry:
  %before = load ptr addrspace(1), ptr addrspace(1) %p
  %cmp1 = call i1 @f(ptr addrspace(1) %before)
  call void @llvm.assume(i1 %cmp1)
  %safepoint_token = tail call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @func, i32 0, i32 0, i32 0, i32 0) ["gc-live" (ptr addrspace(1) %p)]
  %pnew = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %safepoint_token,  i32 0, i32 0)
  %after = load ptr addrspace(1), ptr addrspace(1) %pnew
  %cmp2 = call i1 @f(ptr addrspace(1) %after)
  ret i1 %cmp2

}

define i1 @test_store_forward(ptr addrspace(1) %p,
                              ptr addrspace(1) %v) gc "statepoint-example" {
entry:
  %cmp1 = call i1 @f(ptr addrspace(1) %v)
  call void @llvm.assume(i1 %cmp1)
  store ptr addrspace(1) %v, ptr addrspace(1) %p
  %safepoint_token = tail call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @func, i32 0, i32 0, i32 0, i32 0) ["gc-live" (ptr addrspace(1) %p)]
  %pnew = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %safepoint_token,  i32 0, i32 0)
  %after = load ptr addrspace(1), ptr addrspace(1) %pnew
  %cmp2 = call i1 @f(ptr addrspace(1) %after)
  ret i1 %cmp2

}

declare i1 @f(ptr addrspace(1) %v) readnone

define i1 @test_load_forward_nongc_heap(ptr %p) gc "statepoint-example" {
entry:
  %before = load ptr addrspace(1), ptr %p
  %cmp1 = call i1 @f(ptr addrspace(1) %before)
  call void @llvm.assume(i1 %cmp1)
  call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @func, i32 0, i32 0, i32 0, i32 0)
  %after = load ptr addrspace(1), ptr %p
  %cmp2 = call i1 @f(ptr addrspace(1) %after)
  ret i1 %cmp2

}

define i1 @test_store_forward_nongc_heap(ptr %p,
                                         ptr addrspace(1) %v) gc "statepoint-example" {
entry:
  %cmp1 = call i1 @f(ptr addrspace(1) %v)
  call void @llvm.assume(i1 %cmp1)
  store ptr addrspace(1) %v, ptr %p
  call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @func, i32 0, i32 0, i32 0, i32 0)
  %after = load ptr addrspace(1), ptr %p
  %cmp2 = call i1 @f(ptr addrspace(1) %after)
  ret i1 %cmp2

}

declare void @llvm.assume(i1)
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32) #3
