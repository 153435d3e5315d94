; expect: 4:85: error: patchpoint NUMBYTES of 65537 bytes is larger than the limit, 65536 bytes (patchmap writes them as nops)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
define i64 @f(i64 %a) {
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 65537, ptr null, i32 0, i64 %a)
  ret i64 %a
}
