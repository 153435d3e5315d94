; expect: 4:68: error: stackmap SHADOW of 2147483647 bytes is larger than the limit, 65536 bytes (patchmap writes them as nops)
declare void @llvm.experimental.stackmap(i64, i32, ...)
define i64 @f(i64 %a) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 2147483647, i64 %a)
  ret i64 %a
}
