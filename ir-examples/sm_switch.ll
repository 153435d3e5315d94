; A switch in a loop of 9 iterations: each case and the default have their own map (IDs 80-83), so
; the executions interleave as 80 81 82 83 80 81 82 83 80. Each map is followed by code of its own
; block: a map that ends a block recorded at the next instruction, which may be the join block's.
; Exit status: 80.
source_filename = "sm_switch.ll"

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

@seed = internal global i64 1000, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %next ]
  %i64 = zext i32 %i to i64
  %v = add i64 %s, %i64
  %sel = urem i32 %i, 4
  switch i32 %sel, label %other [ i32 0, label %c0
                                  i32 1, label %c1
                                  i32 2, label %c2 ]
c0:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 80, i32 0, i32 %i, i64 %v)
  call void @sm_begin(i64 80)
  %sm.b212 = zext i32 %i to i64
  call void @sm_val(i64 32, i64 %sm.b212)
  call void @sm_val(i64 64, i64 %v)
  call void @sm_end()
  br label %next
c1:
  %v1 = mul i64 %v, 2
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 81, i32 0, i32 %i, i64 %v1)
  call void @sm_begin(i64 81)
  %sm.b214 = zext i32 %i to i64
  call void @sm_val(i64 32, i64 %sm.b214)
  call void @sm_val(i64 64, i64 %v1)
  call void @sm_end()
  br label %next
c2:
  %v2 = trunc i64 %v to i16
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 82, i32 0, i16 %v2)
  call void @sm_begin(i64 82)
  %sm.b216 = zext i16 %v2 to i64
  call void @sm_val(i64 16, i64 %sm.b216)
  call void @sm_end()
  br label %next
other:
  %v3 = sub i64 0, %v
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 83, i32 0, i64 %v3, i32 %sel)
  call void @sm_begin(i64 83)
  call void @sm_val(i64 64, i64 %v3)
  %sm.b218 = zext i32 %sel to i64
  call void @sm_val(i64 32, i64 %sm.b218)
  call void @sm_end()
  br label %next
next:
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 9
  br i1 %more, label %loop, label %done
done:
  ret i32 80
}
