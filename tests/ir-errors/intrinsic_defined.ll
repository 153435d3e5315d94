; expect: 2:13: error: intrinsic '@llvm.experimental.stackmap' cannot be defined
define void @llvm.experimental.stackmap(i64 %id, i32 %shadow, ...) {
  ret void
}
