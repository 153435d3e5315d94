; expect: 4:61: error: argument 0 has type 'i32' but the function type expects 'i64'
declare void @llvm.experimental.stackmap(i64, i32, ...)
define void @f() {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i32 1, i32 0)
  ret void
}
