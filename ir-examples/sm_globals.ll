; Pointers into globals: to an i8, to an array and a GEP into it (symbol offset 8), to a double, a
; pointer loaded from a global, and a function address (not announced: only its symbol is compared).
; Exit status: 16.
source_filename = "sm_globals.ll"

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

@g8 = internal global i8 -7, align 1
@g32 = internal global [4 x i32] [i32 10, i32 20, i32 -30, i32 40], align 4
@gd = global double 6.25, align 8
@gp = internal global ptr null, align 8
@seed = internal global i64 2, align 8

define internal i32 @helper(i32 %x) {
entry:
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %e2 = getelementptr [4 x i32], ptr @g32, i64 0, i64 %s
  %e3 = getelementptr [4 x i32], ptr @g32, i64 0, i64 3
  store volatile ptr %e3, ptr @gp
  %loaded = load volatile ptr, ptr @gp
  call void @sm_begin(i64 160)
  %sm.a265 = load i8, ptr @g8
  %sm.b265 = zext i8 %sm.a265 to i64
  call void @sm_mem(i64 8, i64 %sm.b265)
  %sm.a266 = load i32, ptr @g32
  %sm.b266 = zext i32 %sm.a266 to i64
  call void @sm_mem(i64 32, i64 %sm.b266)
  %sm.a267 = load i32, ptr %e2
  %sm.b267 = zext i32 %sm.a267 to i64
  call void @sm_mem(i64 32, i64 %sm.b267)
  %sm.a268 = load double, ptr @gd
  %sm.b268 = bitcast double %sm.a268 to i64
  call void @sm_mem(i64 64, i64 %sm.b268)
  %sm.a269 = load i32, ptr %loaded
  %sm.b269 = zext i32 %sm.a269 to i64
  call void @sm_mem(i64 32, i64 %sm.b269)
  call void @sm_skip()
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 160, i32 0, ptr @g8, ptr @g32, ptr %e2, ptr @gd, ptr %loaded, ptr @helper)
  %h = call i32 @helper(i32 15)
  ret i32 %h
}
