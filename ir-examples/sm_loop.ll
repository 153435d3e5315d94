; A stack map (ID 40, shadow 8) inside a counted loop of 5 iterations: five executions with changing
; phi values. ID 41 after the loop. Exit status: acc & 127.
source_filename = "sm_loop.ll"

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

@seed = internal global i64 3, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ %s, %entry ], [ %acc1, %loop ]
  %fd = phi double [ 1.0, %entry ], [ %fd1, %loop ]
  %b = trunc i32 %i to i8
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 40, i32 8, i32 %i, i64 %acc, double %fd, i8 %b)
  call void @sm_begin(i64 40)
  %sm.b106 = zext i32 %i to i64
  call void @sm_val(i64 32, i64 %sm.b106)
  call void @sm_val(i64 64, i64 %acc)
  %sm.b108 = bitcast double %fd to i64
  call void @sm_val(i64 64, i64 %sm.b108)
  %sm.b109 = zext i8 %b to i64
  call void @sm_val(i64 8, i64 %sm.b109)
  call void @sm_end()
  %i64 = zext i32 %i to i64
  %acc0 = mul i64 %acc, 3
  %acc1 = add i64 %acc0, %i64
  %fd1 = fmul double %fd, -1.5
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 5
  br i1 %more, label %loop, label %done
done:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 41, i32 0, i64 %acc1, i32 %i1)
  call void @sm_begin(i64 41)
  call void @sm_val(i64 64, i64 %acc1)
  %sm.b111 = zext i32 %i1 to i64
  call void @sm_val(i64 32, i64 %sm.b111)
  call void @sm_end()
  %t = trunc i64 %acc1 to i32
  %st = and i32 %t, 127
  ret i32 %st
}
