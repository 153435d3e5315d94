; One live value of every scalar type (i1, i8, i16, i32, i64, float, double, ptr to an alloca, to a
; global, null) computed at run time, then the same types as constants. Stack maps are announced on
; stdout first (see the helpers below). Exit status: a64 & 63.
source_filename = "sm_types.ll"

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

@seed = internal global i64 1234567, align 8
@gword = internal global i64 -6148914691236517206, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %a64 = mul i64 %s, 1000003
  %a32 = trunc i64 %a64 to i32
  %a16 = trunc i64 %s to i16
  %n8 = sub i64 0, %s
  %a8 = trunc i64 %n8 to i8
  %odd = trunc i64 %s to i1
  %fs = sitofp i64 %s to float
  %f = fmul float %fs, 1.5
  %ds = sitofp i64 %s to double
  %d = fdiv double %ds, 3.0
  %slot = alloca i64, align 8
  store i64 %a64, ptr %slot
  call void @sm_begin(i64 1)
  %sm.b0 = zext i1 %odd to i64
  call void @sm_val(i64 1, i64 %sm.b0)
  %sm.b1 = zext i8 %a8 to i64
  call void @sm_val(i64 8, i64 %sm.b1)
  %sm.b2 = zext i16 %a16 to i64
  call void @sm_val(i64 16, i64 %sm.b2)
  %sm.b3 = zext i32 %a32 to i64
  call void @sm_val(i64 32, i64 %sm.b3)
  call void @sm_val(i64 64, i64 %a64)
  %sm.b5 = bitcast float %f to i32
  %sm.c5 = zext i32 %sm.b5 to i64
  call void @sm_val(i64 32, i64 %sm.c5)
  %sm.b6 = bitcast double %d to i64
  call void @sm_val(i64 64, i64 %sm.b6)
  %sm.a7 = load i64, ptr %slot
  call void @sm_mem(i64 64, i64 %sm.a7)
  %sm.a8 = load i64, ptr @gword
  call void @sm_mem(i64 64, i64 %sm.a8)
  call void @sm_val(i64 64, i64 0)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i1 %odd, i8 %a8, i16 %a16, i32 %a32, i64 %a64, float %f, double %d, ptr %slot, ptr @gword, ptr null)
  call void @sm_begin(i64 2)
  call void @sm_val(i64 1, i64 1)
  call void @sm_val(i64 8, i64 128)
  call void @sm_val(i64 16, i64 65535)
  call void @sm_val(i64 32, i64 4294967295)
  call void @sm_val(i64 64, i64 4294967296)
  call void @sm_val(i64 32, i64 1069547520)
  call void @sm_val(i64 64, i64 4613374868287651840)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, i1 true, i8 -128, i16 -1, i32 -1, i64 4294967296, float 1.5, double 2.75)
  %r = trunc i64 %a64 to i32
  %st = and i32 %r, 63
  ret i32 %st
}
