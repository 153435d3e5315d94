; Integer literals as LLVM's parser takes them (llvm/test/CodeGen/X86/stackmap.ll writes
; `i32 4294967296`): decimals reduced modulo 2^N, s0x/u0x hexadecimal integers.
; targets: x86_64 aarch64
define void @literals(i64 %x) {
entry:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i32 4294967296, i32 4294967297, i8 -129, i1 2, i64 18446744073709551617, i32 s0x0F, i32 u0xFFFFFFFFF, i16 u0x1FFFF, i64 %x)
  ret void
}

declare void @llvm.experimental.stackmap(i64, i32, ...)
