; expect: 9:140: error: statepoint FLAGS 4: only bits 0 (GC transition) and 1 (deopt values live in) are defined
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @llvm.experimental.gc.result.i32(token)
declare i64 @g(i64)
declare void @h()
define void @f() gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(void ()) @h, i32 0, i32 4, i32 0, i32 0)
  ret void
}
