; From llvm/test/CodeGen/X86/stackmap.ll (constantargs, osrcold): a patch point TARGET computed by
; `inttoptr`, constants of every width written as LLVM's tests write them (`i32 4294967296`,
; `i128 66`, `i128 4294967297`), and an OSR exit whose target is an `inttoptr` instruction. Changed: 16
; bytes instead of 15 and the thunk 0xdeadbeef instead of its negation, so AArch64 can take them too.
; targets: x86_64 aarch64
define void @constantargs() {
entry:
  %0 = inttoptr i64 12345 to ptr
  tail call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 16, ptr %0, i32 0, i16 65535, i16 -1, i32 65536, i32 2000000000, i32 2147483647, i32 -1, i32 4294967295, i32 4294967296, i64 2147483648, i64 4294967295, i64 4294967296, i64 -1, i128 66, i128 4294967297)
  ret void
}

define void @osrcold(i64 %a, i64 %b) {
entry:
  %test = icmp slt i64 %a, %b
  br i1 %test, label %ret, label %cold
cold:
  %thunk = inttoptr i64 3735928559 to ptr
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 16, ptr %thunk, i32 0, i64 %a, i64 %b)
  unreachable
ret:
  ret void
}

declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
