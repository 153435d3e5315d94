; origin: llvm/llvm-project llvm/test/CodeGen/X86/stackmap-large-location-size.ll at 3e239e56014cddfefc6710016f64550ec62d665a (full-line comments other than RUN lines removed)
; RUN: llc -combiner-topological-sorting < %s -mtriple="x86_64-pc-linux-gnu" | FileCheck %s

declare void @callee()

define void @f_0(<1024 x i64> %val) {
  call void @callee() [ "deopt"(<1024 x i64> %val) ]
  ret void
}

define void @f_1(<1024 x ptr> %val) {
  call void @callee() [ "deopt"(<1024 x ptr> %val) ]
  ret void
}

define void @f_2(<99 x ptr> %val) {
  call void @callee() [ "deopt"(<99 x ptr> %val) ]
  ret void
}


define <400 x ptr addrspace(1)> @f_3(<400 x ptr addrspace(1)> %obj) gc "statepoint-example" {
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4242, i32 0, ptr elementtype(void ()) @do_safepoint, i32 0, i32 0, i32 0, i32 0) ["gc-live"(<400 x ptr addrspace(1)> %obj)]
  %obj.r = call coldcc <400 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v400p1(token %tok, i32 0, i32 0)
  ret <400 x ptr addrspace(1)> %obj.r
}

declare void @do_safepoint()

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare <400 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v400p1(token, i32, i32)
