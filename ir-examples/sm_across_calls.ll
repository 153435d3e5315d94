; Values defined before calls and live across them; the stack maps come right after calls, so a
; call's result is live in the return register at the map (ID 20, 21). Exit status: (r1 + r2) & 127.
source_filename = "sm_across_calls.ll"

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

@seed = internal global i64 4242, align 8

define internal i64 @mix(i64 %a, i64 %b) {
entry:
  %m = mul i64 %a, 31
  %r = xor i64 %m, %b
  ret i64 %r
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %x = add i64 %s, 1000
  %y = trunc i64 %s to i32
  %ds = sitofp i64 %s to double
  %dd = fmul double %ds, 0.25
  %r1 = call i64 @mix(i64 %x, i64 %s)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 20, i32 0, i64 %x, i32 %y, double %dd, i64 %r1)
  call void @sm_begin(i64 20)
  call void @sm_val(i64 64, i64 %x)
  %sm.b86 = zext i32 %y to i64
  call void @sm_val(i64 32, i64 %sm.b86)
  %sm.b87 = bitcast double %dd to i64
  call void @sm_val(i64 64, i64 %sm.b87)
  call void @sm_val(i64 64, i64 %r1)
  call void @sm_end()
  %y64 = sext i32 %y to i64
  %r2 = call i64 @mix(i64 %r1, i64 %y64)
  %ff = fptrunc double %dd to float
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 21, i32 0, i64 %r1, i64 %r2, i64 %x, i32 %y, double %dd, float %ff)
  call void @sm_begin(i64 21)
  call void @sm_val(i64 64, i64 %r1)
  call void @sm_val(i64 64, i64 %r2)
  call void @sm_val(i64 64, i64 %x)
  %sm.b92 = zext i32 %y to i64
  call void @sm_val(i64 32, i64 %sm.b92)
  %sm.b93 = bitcast double %dd to i64
  call void @sm_val(i64 64, i64 %sm.b93)
  %sm.b94 = bitcast float %ff to i32
  %sm.c94 = zext i32 %sm.b94 to i64
  call void @sm_val(i64 32, i64 %sm.c94)
  call void @sm_end()
  %t = add i64 %r1, %r2
  %t32 = trunc i64 %t to i32
  %st = and i32 %t32, 127
  ret i32 %st
}
