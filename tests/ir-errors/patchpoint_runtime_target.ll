; expect: 4:93: error: patchpoint TARGET must be a constant pointer (null, inttoptr or a function address)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
define void @f(ptr %target) {
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 16, ptr %target, i32 0)
  ret void
}
