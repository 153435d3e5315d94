; expect: 10:86: error: 'gc.relocate' derived index 3 is outside the statepoint's 1 gc-live value(s)
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @llvm.experimental.gc.result.i32(token)
declare i64 @g(i64)
declare void @h()
define ptr addrspace(1) @f(ptr addrspace(1) %a) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(void ()) @h, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %a) ]
  %a2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 3)
  ret ptr addrspace(1) %a2
}
