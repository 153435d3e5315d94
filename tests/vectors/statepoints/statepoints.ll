; Vectors at statepoints, against llc-19's records (tests/statepoints/vectors.rs): vectors of GC
; pointers in gc-live relocated whole, vectors among the deopt values, constant vectors (which
; llc-19 spills, never records as constants). IDs 1 to 4.

declare void @do_safepoint()
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token, i32, i32)

define <2 x ptr addrspace(1)> @relocated(<2 x ptr addrspace(1)> %obj) gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(void ()) @do_safepoint, i32 0, i32 0, i32 0, i32 0) ["gc-live" (<2 x ptr addrspace(1)> %obj)]
  %r = call coldcc <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token %tok, i32 0, i32 0)
  ret <2 x ptr addrspace(1)> %r
}

define void @deopt(<2 x i32> %v, <4 x float> %w, i64 %x) gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 2, i32 0, ptr elementtype(void ()) @do_safepoint, i32 0, i32 0, i32 0, i32 0) ["deopt" (<2 x i32> %v, i64 %x, <4 x float> %w)]
  ret void
}

define <2 x ptr addrspace(1)> @constant() gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 3, i32 0, ptr elementtype(void ()) @do_safepoint, i32 0, i32 0, i32 0, i32 0) ["gc-live" (<2 x ptr addrspace(1)> zeroinitializer)]
  %r = call coldcc <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token %tok, i32 0, i32 0)
  ret <2 x ptr addrspace(1)> %r
}

define void @constant_deopt() gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4, i32 0, ptr elementtype(void ()) @do_safepoint, i32 0, i32 0, i32 0, i32 0) ["deopt" (<2 x i64> zeroinitializer, <2 x i64> undef, <2 x i32> <i32 1, i32 2>)]
  ret void
}
