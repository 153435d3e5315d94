; anyregcc patch points with null targets: each record holds the result register (not yet written at
; the region start: "-"), one register per argument, then the live values. See sm_loop.ll for the
; S-line protocol.
source_filename = "pp_anyreg.ll"

declare i32 @putchar(i32)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)

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
  %i64 = zext i32 %i to i64
  %k = mul i64 %acc, 7
  %r = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 70, i32 16, ptr null, i32 3, i64 %i64, i64 %acc, i64 %k, i32 %i, i64 5000000000)
  call void @sm_begin(i64 70)
  call void @sm_skip()
  call void @sm_val(i64 64, i64 %i64)
  call void @sm_val(i64 64, i64 %acc)
  call void @sm_val(i64 64, i64 %k)
  %sm.i = zext i32 %i to i64
  call void @sm_val(i64 32, i64 %sm.i)
  call void @sm_val(i64 64, i64 5000000000)
  call void @sm_end()
  %acc0 = add i64 %k, %acc
  %acc1 = add i64 %acc0, %i64
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 3
  br i1 %more, label %loop, label %done
done:
  call anyregcc void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 71, i32 8, ptr null, i32 2, i64 %acc1, i32 %i1, i64 %acc1)
  call void @sm_begin(i64 71)
  call void @sm_val(i64 64, i64 %acc1)
  %sm.i1 = zext i32 %i1 to i64
  call void @sm_val(i64 32, i64 %sm.i1)
  call void @sm_val(i64 64, i64 %acc1)
  call void @sm_end()
  %t = trunc i64 %acc1 to i32
  %st = and i32 %t, 127
  ret i32 %st
}
