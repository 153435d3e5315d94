; expect: 5:132: error: a statepoint of a variadic function must return void, not 'i32'
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare i32 @printf(ptr, ...)
define void @f(ptr %fmt) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(i32 (ptr, ...)) @printf, i32 2, i32 0, ptr %fmt, i32 5, i32 0, i32 0)
  ret void
}
