; expect: 5:97: error: statepoint NUMPATCHBYTES of 2147483647 bytes is larger than the limit, 65536 bytes (patchmap writes them as nops)
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare void @h()
define void @f() gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 2147483647, ptr elementtype(void ()) @h, i32 0, i32 0, i32 0, i32 0)
  ret void
}
