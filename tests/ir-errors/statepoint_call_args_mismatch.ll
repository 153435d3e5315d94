; expect: 9:149: error: statepoint call argument 0 has type 'i32' but the target's type expects 'i64'
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @llvm.experimental.gc.result.i32(token)
declare i64 @g(i64)
declare void @h()
define void @f(i32 %x) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(i64 (i64)) @g, i32 1, i32 0, i32 %x, i32 0, i32 0)
  ret void
}
