; The same value several times in one map (ID 140), a map without live values (ID 141), a map of
; one value (ID 142), the same value as a register and as a constant-folded copy (ID 143), and two
; empty maps at one address (IDs 144, 145). Exit status: 14.
source_filename = "sm_repeated.ll"

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

@seed = internal global i64 314159, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %x = mul i64 %s, 17
  %y = trunc i64 %x to i32
  call void @sm_begin(i64 140)
  call void @sm_val(i64 64, i64 %x)
  call void @sm_val(i64 64, i64 %x)
  call void @sm_val(i64 64, i64 %x)
  %sm.b222 = zext i32 %y to i64
  call void @sm_val(i64 32, i64 %sm.b222)
  call void @sm_val(i64 64, i64 %x)
  %sm.b224 = zext i32 %y to i64
  call void @sm_val(i64 32, i64 %sm.b224)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 140, i32 0, i64 %x, i64 %x, i64 %x, i32 %y, i64 %x, i32 %y)
  call void @sm_begin(i64 141)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 141, i32 0)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 142, i32 0, i64 %x)
  call void @sm_begin(i64 142)
  call void @sm_val(i64 64, i64 %x)
  call void @sm_end()
  %k = and i64 %s, 0
  %z = add i64 %k, 5
  call void @sm_begin(i64 143)
  call void @sm_val(i64 64, i64 %z)
  call void @sm_val(i64 64, i64 5)
  call void @sm_val(i64 64, i64 %s)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 143, i32 0, i64 %z, i64 5, i64 %s)
  call void @sm_begin(i64 144)
  call void @sm_end()
  call void @sm_begin(i64 145)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 144, i32 0)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 145, i32 0)
  ret i32 14
}
