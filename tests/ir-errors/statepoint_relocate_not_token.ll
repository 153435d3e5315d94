; expect: 9:71: error: expected a value of type 'token', found 'none'
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @llvm.experimental.gc.result.i32(token)
declare i64 @g(i64)
declare void @h()
define ptr addrspace(1) @f(ptr addrspace(1) %a) gc "statepoint-example" {
  %a2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token none, i32 0, i32 0)
  ret ptr addrspace(1) %a2
}
