; expect: 3:106: error: unsupported type 'i128'
define void @f() {
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 16, ptr null, i32 1, i128 1)
  ret void
}
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
