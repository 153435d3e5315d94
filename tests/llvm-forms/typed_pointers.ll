; Typed-pointer syntax that llc-19 still reads as `ptr` (LLVM's older stack map tests):
; function pointer types and `bitcast` constant expressions of function addresses.
; targets: x86_64 aarch64
declare void @callee()

define void @typed(i8* %p, i64 (i64)* %fn, i8 addrspace(1)* %q) {
entry:
  %a = bitcast void ()* @callee to i8*
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i8* %p, i64 (i64)* %fn, i8* %a, i8* bitcast (void ()* @callee to i8*), i8 addrspace(1)* %q)
  ret void
}

declare void @llvm.experimental.stackmap(i64, i32, ...)
