; iN arguments and live values of patch points (anyregcc too): sizes and constants as llc-19 records them.
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
define i64 @f(i2 %a, i24 %b, i40 %c) {
  %b1 = mul i24 %b, 3
  %c1 = sub i40 %c, 7
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 16, ptr null, i32 0, i2 %a, i24 %b1, i40 %c1, i24 -1)
  %r = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 5, i32 16, ptr null, i32 2, i24 %b1, i40 %c1, i2 %a)
  ret i64 %r
}
