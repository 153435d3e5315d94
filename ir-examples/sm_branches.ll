; Stack maps in both arms of a branch inside a loop of 6 iterations (ID 50 on even, 51 on odd i), each
; with shadow 16 directly before the branch to the join block (the shadow needs padding), and one
; with shadow 16 directly before a `ret` (ID 52). Exit status: 50 + 7 = 57.
source_filename = "sm_branches.ll"

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

@seed = internal global i64 10, align 8

define internal i64 @tail(i64 %v) {
entry:
  call void @sm_begin(i64 52)
  call void @sm_val(i64 64, i64 %v)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 52, i32 16, i64 %v)
  ret i64 %v
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %join ]
  %i64 = zext i32 %i to i64
  %bit = and i32 %i, 1
  %even = icmp eq i32 %bit, 0
  %big = icmp ugt i32 %i, 2
  br i1 %even, label %then, label %else
then:
  %even_v = mul i64 %s, %i64
  call void @sm_begin(i64 50)
  %sm.b113 = zext i32 %i to i64
  call void @sm_val(i64 32, i64 %sm.b113)
  call void @sm_val(i64 64, i64 %even_v)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 50, i32 16, i32 %i, i64 %even_v)
  br label %join
else:
  %odd_v = sub i64 %s, %i64
  call void @sm_begin(i64 51)
  %sm.b115 = zext i32 %i to i64
  call void @sm_val(i64 32, i64 %sm.b115)
  call void @sm_val(i64 64, i64 %odd_v)
  %sm.b117 = zext i1 %big to i64
  call void @sm_val(i64 1, i64 %sm.b117)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 51, i32 16, i32 %i, i64 %odd_v, i1 %big)
  br label %join
join:
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 6
  br i1 %more, label %loop, label %done
done:
  %r = call i64 @tail(i64 7)
  %r32 = trunc i64 %r to i32
  %st = add i32 %r32, 50
  ret i32 %st
}
