; Shadows 0, 4, 8, 12, 16 and 32 (AArch64 needs multiples of 4): maps followed by arithmetic, by a
; call (x86-64 pads before the call), by another map, by a branch and by a `ret` (padding needed).
; Exit status: 33.
source_filename = "sm_shadows.ll"

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

@seed = internal global i64 99, align 8

define internal i64 @last(i64 %v) {
entry:
  call void @sm_begin(i64 105)
  call void @sm_val(i64 64, i64 %v)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 105, i32 32, i64 %v)
  ret i64 %v
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  call void @sm_begin(i64 100)
  call void @sm_val(i64 64, i64 %s)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 100, i32 0, i64 %s)
  %a = mul i64 %s, 3
  %b = add i64 %a, 17
  call void @sm_begin(i64 101)
  call void @sm_val(i64 64, i64 %a)
  call void @sm_val(i64 64, i64 %b)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 101, i32 4, i64 %a, i64 %b)
  %c = xor i64 %b, 255
  %d = sub i64 %c, %a
  call void @sm_begin(i64 102)
  call void @sm_val(i64 64, i64 %c)
  call void @sm_val(i64 64, i64 %d)
  call void @sm_end()
  call void @sm_begin(i64 103)
  call void @sm_val(i64 64, i64 %d)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 102, i32 8, i64 %c, i64 %d)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 103, i32 12, i64 %d)
  %e = call i64 @last(i64 %d)
  call void @sm_begin(i64 104)
  call void @sm_val(i64 64, i64 %e)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 104, i32 16, i64 %e)
  %big = icmp ugt i64 %e, 1000
  br i1 %big, label %yes, label %no
yes:
  br label %out
no:
  br label %out
out:
  %r = phi i32 [ 33, %yes ], [ 33, %no ]
  ret i32 %r
}
