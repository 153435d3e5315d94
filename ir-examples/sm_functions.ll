; Stack maps in four functions (internal and external linkage, one called from the other), each
; called several times: ID 60 in @scale (3 calls), 61 and 62 in @combine (2 calls), 63 in main.
; Exit status: result & 127.
source_filename = "sm_functions.ll"

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

@seed = internal global i64 21, align 8

define internal i64 @scale(i64 %x, i32 %k) {
entry:
  %k64 = sext i32 %k to i64
  %r = mul i64 %x, %k64
  call void @sm_begin(i64 60)
  call void @sm_val(i64 64, i64 %x)
  %sm.b119 = zext i32 %k to i64
  call void @sm_val(i64 32, i64 %sm.b119)
  call void @sm_val(i64 64, i64 %r)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 60, i32 0, i64 %x, i32 %k, i64 %r)
  ret i64 %r
}

define i64 @combine(i64 %a, i64 %b) {
entry:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 61, i32 8, i64 %a, i64 %b)
  call void @sm_begin(i64 61)
  call void @sm_val(i64 64, i64 %a)
  call void @sm_val(i64 64, i64 %b)
  call void @sm_end()
  %sa = call i64 @scale(i64 %a, i32 3)
  %sb = call i64 @scale(i64 %b, i32 -2)
  %r = add i64 %sa, %sb
  call void @sm_begin(i64 62)
  call void @sm_val(i64 64, i64 %r)
  call void @sm_val(i64 64, i64 %sa)
  call void @sm_val(i64 64, i64 %sb)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 62, i32 0, i64 %r, i64 %sa, i64 %sb)
  ret i64 %r
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %c1 = call i64 @combine(i64 %s, i64 5)
  %c2 = call i64 @combine(i64 %c1, i64 %s)
  %l = call i64 @scale(i64 %c2, i32 7)
  call void @sm_begin(i64 63)
  call void @sm_val(i64 64, i64 %c1)
  call void @sm_val(i64 64, i64 %c2)
  call void @sm_val(i64 64, i64 %l)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 63, i32 0, i64 %c1, i64 %c2, i64 %l)
  %t = trunc i64 %l to i32
  %st = and i32 %t, 127
  ret i32 %st
}
