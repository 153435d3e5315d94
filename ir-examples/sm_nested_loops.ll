; Nested loops, 3 outer by 4 inner iterations: ID 90 in the inner body runs 12 times, ID 91 after each
; inner loop 3 times; narrow (i8, i16) loop counters. Exit status: total & 127.
source_filename = "sm_nested_loops.ll"

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

@seed = internal global i64 5, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  br label %outer
outer:
  %o = phi i8 [ 0, %entry ], [ %o1, %outer_end ]
  %tot = phi i64 [ 0, %entry ], [ %tot1, %outer_end ]
  br label %inner
inner:
  %n = phi i16 [ 0, %outer ], [ %n1, %inner ]
  %acc = phi float [ 0.5, %outer ], [ %acc1, %inner ]
  %tot0 = phi i64 [ %tot, %outer ], [ %tot1, %inner ]
  %o64 = zext i8 %o to i64
  %n64 = zext i16 %n to i64
  %on = mul i64 %o64, %n64
  %prod = add i64 %on, %s
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 90, i32 0, i8 %o, i16 %n, i64 %prod, float %acc)
  call void @sm_begin(i64 90)
  %sm.b199 = zext i8 %o to i64
  call void @sm_val(i64 8, i64 %sm.b199)
  %sm.b200 = zext i16 %n to i64
  call void @sm_val(i64 16, i64 %sm.b200)
  call void @sm_val(i64 64, i64 %prod)
  %sm.b202 = bitcast float %acc to i32
  %sm.c202 = zext i32 %sm.b202 to i64
  call void @sm_val(i64 32, i64 %sm.c202)
  call void @sm_end()
  %acc1 = fadd float %acc, 1.25
  %tot1 = add i64 %tot0, %prod
  %n1 = add i16 %n, 1
  %more = icmp ult i16 %n1, 4
  br i1 %more, label %inner, label %outer_end
outer_end:
  call void @sm_begin(i64 91)
  %sm.b203 = zext i8 %o to i64
  call void @sm_val(i64 8, i64 %sm.b203)
  %sm.b204 = bitcast float %acc1 to i32
  %sm.c204 = zext i32 %sm.b204 to i64
  call void @sm_val(i64 32, i64 %sm.c204)
  call void @sm_val(i64 64, i64 %tot1)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 91, i32 8, i8 %o, float %acc1, i64 %tot1)
  %o1 = add i8 %o, 1
  %again = icmp ult i8 %o1, 3
  br i1 %again, label %outer, label %done
done:
  %t = trunc i64 %tot1 to i32
  %st = and i32 %t, 127
  ret i32 %st
}
