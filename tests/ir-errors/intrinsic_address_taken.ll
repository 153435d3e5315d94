; expect: 4:11: error: intrinsic '@llvm.experimental.stackmap' can only be called directly
declare void @llvm.experimental.stackmap(i64, i32, ...)
define ptr @f() {
  ret ptr @llvm.experimental.stackmap
}
