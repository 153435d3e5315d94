; expect: 2:13: error: intrinsic '@llvm.experimental.patchpoint.i64' must be declared as 'i64 (i64, i32, ptr, i32, ...)', found 'i32 (i64, i32, ptr, i32, ...)'
declare i32 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
define i32 @f() {
  %r = call i32 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 1, i32 16, ptr null, i32 0)
  ret i32 %r
}
