; expect: 4:85: error: patchpoint NUMBYTES must be an i32 constant
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
define void @f(i32 %n) {
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 %n, ptr null, i32 0)
  ret void
}
