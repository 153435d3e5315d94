; Allocas passed directly (Direct locations): i8, i16, i32, i64, double and [4 x i64], and a GEP into
; the array (a plain pointer). IDs 30 and 31 are adjacent with no code between (one address, two
; records). The checker compares what the pointers point to. Exit status: 42.
source_filename = "sm_allocas.ll"

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

@seed = internal global i64 77, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %p8 = alloca i8, align 1
  %p16 = alloca i16, align 2
  %p32 = alloca i32, align 4
  %p64 = alloca i64, align 8
  %pd = alloca double, align 8
  %arr = alloca [4 x i64], align 16
  %t8 = trunc i64 %s to i8
  store i8 %t8, ptr %p8
  %t16 = mul i64 %s, 1001
  %u16 = trunc i64 %t16 to i16
  store i16 %u16, ptr %p16
  %t32 = mul i64 %s, 100003
  %u32 = trunc i64 %t32 to i32
  store i32 %u32, ptr %p32
  %t64 = mul i64 %s, 10000000019
  store i64 %t64, ptr %p64
  %td = sitofp i64 %s to double
  store double %td, ptr %pd
  store i64 %s, ptr %arr
  %elt = getelementptr [4 x i64], ptr %arr, i64 0, i64 2
  %e2 = add i64 %s, 2
  store i64 %e2, ptr %elt
  call void @sm_begin(i64 30)
  %sm.a95 = load i8, ptr %p8
  %sm.b95 = zext i8 %sm.a95 to i64
  call void @sm_mem(i64 8, i64 %sm.b95)
  %sm.a96 = load i16, ptr %p16
  %sm.b96 = zext i16 %sm.a96 to i64
  call void @sm_mem(i64 16, i64 %sm.b96)
  %sm.a97 = load i32, ptr %p32
  %sm.b97 = zext i32 %sm.a97 to i64
  call void @sm_mem(i64 32, i64 %sm.b97)
  %sm.a98 = load i64, ptr %p64
  call void @sm_mem(i64 64, i64 %sm.a98)
  %sm.a99 = load double, ptr %pd
  %sm.b99 = bitcast double %sm.a99 to i64
  call void @sm_mem(i64 64, i64 %sm.b99)
  %sm.a100 = load i64, ptr %arr
  call void @sm_mem(i64 64, i64 %sm.a100)
  call void @sm_end()
  call void @sm_begin(i64 31)
  %sm.a101 = load i64, ptr %arr
  call void @sm_mem(i64 64, i64 %sm.a101)
  %sm.a102 = load i64, ptr %p64
  call void @sm_mem(i64 64, i64 %sm.a102)
  call void @sm_val(i64 64, i64 %s)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 30, i32 0, ptr %p8, ptr %p16, ptr %p32, ptr %p64, ptr %pd, ptr %arr)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 31, i32 0, ptr %arr, ptr %p64, i64 %s)
  call void @sm_begin(i64 32)
  %sm.a104 = load i64, ptr %elt
  call void @sm_mem(i64 64, i64 %sm.a104)
  %sm.a105 = load i8, ptr %p8
  %sm.b105 = zext i8 %sm.a105 to i64
  call void @sm_mem(i64 8, i64 %sm.b105)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 32, i32 0, ptr %elt, ptr %p8)
  ret i32 42
}
