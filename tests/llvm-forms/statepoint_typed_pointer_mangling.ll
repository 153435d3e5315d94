; Typed-pointer statepoints as LLVM's older statepoint tests write them: the intrinsic mangled
; `p0f_isVoidf` and gc.relocate `p1i8` (llc-19 remangles them `p0`, `p1`), `void ()*` and
; `i8 addrspace(1)*` types.
; targets: x86_64 aarch64
declare void @foo()
define i8 addrspace(1)* @g(i8 addrspace(1)* %obj) gc "statepoint-example" {
  %t = call token (i64, i32, void ()*, i32, i32, ...) @llvm.experimental.gc.statepoint.p0f_isVoidf(i64 0, i32 0, void ()* elementtype(void ()) @foo, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(i8 addrspace(1)* %obj) ]
  %r = call i8 addrspace(1)* @llvm.experimental.gc.relocate.p1i8(token %t, i32 0, i32 0)
  ret i8 addrspace(1)* %r
}
declare token @llvm.experimental.gc.statepoint.p0f_isVoidf(i64, i32, void ()*, i32, i32, ...)
declare i8 addrspace(1)* @llvm.experimental.gc.relocate.p1i8(token, i32, i32)
