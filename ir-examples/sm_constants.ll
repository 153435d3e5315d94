; Constants: small (Constant) and large (ConstantIndex), i64 4294967296 repeated in one map and in
; another function (one pool entry per module), -1, i8 -128, i16 -1, i32 extremes, i1, undef and
; poison (not checked), null, inttoptr, FP constants. llc-19 extends sub-64-bit constants differently
; on x86-64 and AArch64 (docs: stack map format 3.3); the values compare by IR type. Exit status: 9.
source_filename = "sm_constants.ll"

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

@seed = internal global i64 -7, align 8

define internal void @more(i64 %s) {
entry:
  call void @sm_begin(i64 132)
  call void @sm_val(i64 64, i64 4294967296)
  call void @sm_val(i64 64, i64 18446744069414584320)
  call void @sm_val(i64 64, i64 %s)
  call void @sm_val(i64 8, i64 255)
  call void @sm_val(i64 16, i64 32768)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 132, i32 0, i64 4294967296, i64 -4294967296, i64 %s, i8 -1, i16 -32768)
  ret void
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  call void @sm_begin(i64 130)
  call void @sm_val(i64 64, i64 4294967296)
  call void @sm_val(i64 64, i64 18446744073709551615)
  call void @sm_val(i64 8, i64 128)
  call void @sm_val(i64 64, i64 4294967296)
  call void @sm_val(i64 16, i64 65535)
  call void @sm_val(i64 32, i64 2147483647)
  call void @sm_val(i64 32, i64 2147483648)
  call void @sm_val(i64 64, i64 18446744071562067967)
  call void @sm_val(i64 64, i64 2147483648)
  call void @sm_val(i64 64, i64 9223372036854775807)
  call void @sm_val(i64 1, i64 0)
  call void @sm_val(i64 1, i64 1)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 130, i32 0, i64 4294967296, i64 -1, i8 -128, i64 4294967296, i16 -1, i32 2147483647, i32 -2147483648, i64 -2147483649, i64 2147483648, i64 9223372036854775807, i1 false, i1 true)
  call void @sm_begin(i64 131)
  call void @sm_skip()
  call void @sm_skip()
  call void @sm_val(i64 64, i64 0)
  call void @sm_val(i64 64, i64 4096)
  call void @sm_val(i64 64, i64 9223372036854775808)
  call void @sm_val(i64 32, i64 1077936128)
  call void @sm_val(i64 64, i64 0)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 131, i32 0, i64 undef, i32 poison, ptr null, ptr inttoptr (i64 4096 to ptr), double -0.0, float 3.0, i64 0)
  call void @more(i64 %s)
  ret i32 9
}
