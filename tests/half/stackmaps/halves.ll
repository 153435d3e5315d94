; half values in stack map records: in registers, across calls (in spill slots on x86-64, which has
; no callee-saved vector registers; in callee-saved registers or slots on AArch64) and constants.
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @clobber()

define half @f(half %a, half %b, float %c) {
  %s = fadd half %a, %b
  %m = fmul half %a, %b
  %t = fptrunc float %c to half
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, half %s, half %m, half %t)
  call void @clobber()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, half %s, half %m, half %t)
  call void @clobber()
  %u = fadd half %s, %m
  %v = fadd half %u, %t
  ret half %v
}

define void @constants() {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 0, half 0xH3C00, half 0xH0000, half 0xH7E00)
  ret void
}
