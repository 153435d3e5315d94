; A recursive function with a map at entry (ID 70, 6 executions for n = 5..0) and one after the
; recursive call (ID 71, 5 executions, innermost first) whose values are live across the call.
; Exit status: walk(5) & 127.
source_filename = "sm_recursion.ll"

declare i32 @putchar(i32)
declare void @llvm.experimental.stackmap(i64, i32, ...)

; Ground truth for tests/stackmaps/checker_llc.rs: each stack map execution is announced by a line "S<id>" with
; one token per live value, in operand order: " <bits>:<hex>" (the value's bits), " *<bits>:<hex>"
; (the first bits a pointer points to) or " -" (not checked: undef).
define internal void @dec(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @dec(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @hex(i64 %v) {
entry:
  %big = icmp uge i64 %v, 16
  br i1 %big, label %rec, label %digit
rec:
  %q = lshr i64 %v, 4
  call void @hex(i64 %q)
  br label %digit
digit:
  %d = and i64 %v, 15
  %d32 = trunc i64 %d to i32
  %letter = icmp uge i32 %d32, 10
  %base = select i1 %letter, i32 87, i32 48
  %c = add i32 %base, %d32
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @sm_begin(i64 %id) {
  call i32 @putchar(i32 83)
  call void @dec(i64 %id)
  ret void
}

define internal void @sm_end() {
  call i32 @putchar(i32 10)
  ret void
}

define internal void @sm_val(i64 %bits, i64 %v) {
  call i32 @putchar(i32 32)
  call void @dec(i64 %bits)
  call i32 @putchar(i32 58)
  call void @hex(i64 %v)
  ret void
}

define internal void @sm_mem(i64 %bits, i64 %v) {
  call i32 @putchar(i32 32)
  call i32 @putchar(i32 42)
  call void @dec(i64 %bits)
  call i32 @putchar(i32 58)
  call void @hex(i64 %v)
  ret void
}

define internal void @sm_skip() {
  call i32 @putchar(i32 32)
  call i32 @putchar(i32 45)
  ret void
}

@seed = internal global i64 5, align 8

define internal i64 @walk(i64 %n, i32 %depth) {
entry:
  call void @sm_begin(i64 70)
  call void @sm_val(i64 64, i64 %n)
  %sm.b207 = zext i32 %depth to i64
  call void @sm_val(i64 32, i64 %sm.b207)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 70, i32 0, i64 %n, i32 %depth)
  %leaf = icmp eq i64 %n, 0
  br i1 %leaf, label %base, label %rec
base:
  ret i64 1
rec:
  %n1 = sub i64 %n, 1
  %d1 = add i32 %depth, 1
  %r = call i64 @walk(i64 %n1, i32 %d1)
  %r2 = mul i64 %r, 3
  %r3 = add i64 %r2, %n
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 71, i32 0, i64 %n, i64 %r, i64 %r3, i32 %depth)
  call void @sm_begin(i64 71)
  call void @sm_val(i64 64, i64 %n)
  call void @sm_val(i64 64, i64 %r)
  call void @sm_val(i64 64, i64 %r3)
  %sm.b211 = zext i32 %depth to i64
  call void @sm_val(i64 32, i64 %sm.b211)
  call void @sm_end()
  ret i64 %r3
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %r = call i64 @walk(i64 %s, i32 0)
  %t = trunc i64 %r to i32
  %st = and i32 %t, 127
  ret i32 %st
}
