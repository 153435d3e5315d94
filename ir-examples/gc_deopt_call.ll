; Deopt state without GC (issue 12): "deopt" bundles on ordinary calls, which llc-19 lowers as
; statepoints (ID 0xABCDEF0F, or the "statepoint-id" attribute's; "statepoint-num-patch-bytes"), a
; fastcc statepoint (calling convention constant 8), and a statepoint with FLAGS = 2 (deopt values
; live in, recorded in registers). llc-19 -O0 on AArch64 drops the bundles of ordinary calls.

@heap = global [8 x i64] [i64 10, i64 20, i64 30, i64 40, i64 50, i64 60, i64 70, i64 80], align 8

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @putchar(i32)

define internal i64 @square(i64 %x) {
entry:
  %r = mul i64 %x, %x
  ret i64 %r
}

define internal fastcc i64 @fast_inc(i64 %x) {
entry:
  %r = add i64 %x, 1
  ret i64 %r
}

define internal i64 @calls(i64 %x, i32 %y, double %w) {
entry:
  %a = call i64 @square(i64 %x) [ "deopt"(i64 %x, i32 %y, double %w, i32 7) ]
  %b = add i64 %a, 3
  %c = call i64 @square(i64 %b) "statepoint-id"="555" [ "deopt"(i64 %b, i64 -1, float 2.5) ]
  %d = add i64 %c, %a
  ret i64 %d
}

define internal i64 @gc_calls(ptr addrspace(1) %p, i64 %x, i32 %y) gc "statepoint-example" {
entry:
  %tok = call fastcc token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 400, i32 0, ptr elementtype(i64 (i64)) @fast_inc, i32 1, i32 0, i64 %x, i32 0, i32 0) [ "deopt"(i64 %x), "gc-live"(ptr addrspace(1) %p) ]
  %r = call i64 @llvm.experimental.gc.result.i64(token %tok)
  %p1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  %tok2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 401, i32 0, ptr elementtype(i64 (i64)) @square, i32 1, i32 2, i64 %r, i32 0, i32 0) [ "deopt"(i64 %r, i32 %y, i8 3, ptr addrspace(1) %p1), "gc-live"(ptr addrspace(1) %p1) ]
  %r2 = call i64 @llvm.experimental.gc.result.i64(token %tok2)
  %p2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok2, i32 0, i32 0)
  %v = load i64, ptr addrspace(1) %p2
  %s = add i64 %r2, %v
  ret i64 %s
}

define internal void @print_u64(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @print_u64(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

define i32 @main() {
entry:
  %o = getelementptr i8, ptr @heap, i64 24
  %p = addrspacecast ptr %o to ptr addrspace(1)
  %a = call i64 @calls(i64 6, i32 -4, double 0.25)
  %b = call i64 @gc_calls(ptr addrspace(1) %p, i64 %a, i32 9)
  %r = add i64 %a, %b
  call void @print_u64(i64 %r)
  call i32 @putchar(i32 10)
  %low = and i64 %r, 127
  %status = trunc i64 %low to i32
  ret i32 %status
}
