; After llvm/test/CodeGen/X86/statepoint-*.ll, which write the transition and deopt counts as
; `i64 0`: llc-19 takes any integer type there.
; targets: x86_64 aarch64
declare void @foo()

define ptr addrspace(1) @counts(ptr addrspace(1) %obj, i64 %d) gc "statepoint-example" {
entry:
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 2882400000, i32 0, ptr elementtype(void ()) @foo, i32 0, i32 0, i64 0, i64 0) [ "deopt"(i64 %d, i32 5), "gc-live"(ptr addrspace(1) %obj) ]
  %r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)
  ret ptr addrspace(1) %r
}

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
