; i128 constants as stack map and patch point live values (llvm/llvm-project issue 55609; the
; shared reference e10): llc-19 records their low 64 bits, as for an i64 constant.
; targets: x86_64 aarch64
define void @i128_constants(i64 %x) {
entry:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 10, i32 0, i128 18446744073709551616, i128 5, i128 -1, i128 18446744073709551615, i128 4294967296, i128 -170141183460469231731687303715884105728, i64 %x)
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 11, i32 16, ptr null, i32 1, i64 %x, i128 u0x10000000000000007)
  ret void
}

declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
