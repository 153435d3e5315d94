; `llvm.thread.pointer()` (`__builtin_thread_pointer()`, as mimalloc reads its thread id): not
; null, the same on every read in a thread, and on x86-64 the address its own first word holds
; (the ELF TLS ABI's thread control block). Prints "1 1 B" where B is 1 on x86-64, 0 on AArch64.
source_filename = "thread_pointer.ll"

@fmt = private constant [10 x i8] c"%d %d %d\0A\00"

declare i32 @printf(ptr, ...)
declare ptr @llvm.thread.pointer()

define internal ptr @read() noinline {
entry:
  %tp = call ptr @llvm.thread.pointer()
  ret ptr %tp
}

define i32 @main() {
entry:
  %tp = call ptr @llvm.thread.pointer()
  %again = call ptr @read()
  %not_null = icmp ne ptr %tp, null
  %same = icmp eq ptr %tp, %again
  %first = load ptr, ptr %tp
  %self = icmp eq ptr %first, %tp
  %a = zext i1 %not_null to i32
  %b = zext i1 %same to i32
  %c = zext i1 %self to i32
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %a, i32 %b, i32 %c)
  ret i32 0
}
