; expect: 4:68: error: stackmap SHADOW (number of shadow bytes) must be an i32 constant
declare void @llvm.experimental.stackmap(i64, i32, ...)
define void @f(i32 %n) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 %n)
  ret void
}
