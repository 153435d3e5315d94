; expect: 10:3: error: 'gc.result' of a statepoint whose target returns void
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @llvm.experimental.gc.result.i32(token)
declare i64 @g(i64)
declare void @h()
define i64 @f() gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(void ()) @h, i32 0, i32 0, i32 0, i32 0)
  %r = call i64 @llvm.experimental.gc.result.i64(token %t)
  ret i64 %r
}
