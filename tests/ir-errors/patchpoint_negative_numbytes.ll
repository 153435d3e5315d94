; expect: 4:85: error: patchpoint NUMBYTES must not be negative, found -4
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
define void @f() {
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 -4, ptr null, i32 0)
  ret void
}
