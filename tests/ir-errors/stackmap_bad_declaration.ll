; expect: 2:14: error: intrinsic '@llvm.experimental.stackmap' must be declared as 'void (i64, i32, ...)', found 'void (i64, i32)'
declare void @llvm.experimental.stackmap(i64, i32)
define void @f() {
  call void @llvm.experimental.stackmap(i64 1, i32 0)
  ret void
}
