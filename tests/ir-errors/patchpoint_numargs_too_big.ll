; expect: 4:103: error: patchpoint NUMARGS is 2 but only 1 argument(s) follow the fixed operands
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
define void @f(i64 %a) {
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 16, ptr null, i32 2, i64 %a)
  ret void
}
