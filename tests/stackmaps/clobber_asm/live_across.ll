; Values live across a clobber-only inline asm, announced before it (the calls that announce them
; leave them in callee-saved registers) and recorded by the stack map that follows it, their last
; use. CLOBBERS is replaced by tests/stackmaps/clobber_asm.rs with every general register the target
; allocates: llc-19 then spills each value (Indirect locations), and so must patchmap.
; Exit status: sum & 127.
declare i32 @putchar(i32)
declare void @llvm.experimental.stackmap(i64, i32, ...)

; Ground truth for the location checker: "S<id>" then " <bits>:<hex>" per live value.
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

@seed = internal global i64 987654321, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %v0 = mul i64 %s, 3
  %v1 = xor i64 %s, 77
  %v2 = add i64 %s, 1000
  %v3 = mul i64 %s, 11
  %v4 = sub i64 %s, 5
  call void @sm_begin(i64 1)
  call void @sm_val(i64 64, i64 %v0)
  call void @sm_val(i64 64, i64 %v1)
  call void @sm_val(i64 64, i64 %v2)
  call void @sm_val(i64 64, i64 %v3)
  call void @sm_val(i64 64, i64 %v4)
  call void @sm_end()
  %a = add i64 %v0, %v1
  %b = add i64 %a, %v2
  %c = add i64 %b, %v3
  %d = add i64 %c, %v4
  %t = trunc i64 %d to i32
  %r = and i32 %t, 127
  call void asm sideeffect "", "CLOBBERS"()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %v0, i64 %v1, i64 %v2, i64 %v3, i64 %v4)
  ret i32 %r
}
