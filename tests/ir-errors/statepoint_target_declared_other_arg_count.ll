; expect: 7:127: error: the statepoint calls '@g' as 'i64 (i64)' (its elementtype) but it is declared as 'i64 (i64, i64)'
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare i64 @llvm.experimental.gc.result.i64(token)
declare double @llvm.experimental.gc.result.f64(token)
declare i64 @g(i64, i64)
define i64 @f(i64 %x) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(i64 (i64)) @g, i32 1, i32 0, i64 %x, i32 0, i32 0)
  %r = call i64 @llvm.experimental.gc.result.i64(token %t)
  ret i64 %r
}
