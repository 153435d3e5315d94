; A stack map at function entry whose live values are the parameters (i1, i8, i16, i32, i64, float,
; double, ptr), still in their argument registers at -O2; announced after the map. Called twice.
; Exit status: 5.
source_filename = "sm_args.ll"

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

@seed = internal global i64 -3, align 8
@cell = internal global i32 -559038737, align 4

define internal void @take(i1 %a1, i8 %a8, i16 %a16, i32 %a32, i64 %a64, float %af, double %ad, ptr %ap) {
entry:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 110, i32 0, i1 %a1, i8 %a8, i16 %a16, i32 %a32, i64 %a64, float %af, double %ad, ptr %ap)
  call void @sm_begin(i64 110)
  %sm.b137 = zext i1 %a1 to i64
  call void @sm_val(i64 1, i64 %sm.b137)
  %sm.b138 = zext i8 %a8 to i64
  call void @sm_val(i64 8, i64 %sm.b138)
  %sm.b139 = zext i16 %a16 to i64
  call void @sm_val(i64 16, i64 %sm.b139)
  %sm.b140 = zext i32 %a32 to i64
  call void @sm_val(i64 32, i64 %sm.b140)
  call void @sm_val(i64 64, i64 %a64)
  %sm.b142 = bitcast float %af to i32
  %sm.c142 = zext i32 %sm.b142 to i64
  call void @sm_val(i64 32, i64 %sm.c142)
  %sm.b143 = bitcast double %ad to i64
  call void @sm_val(i64 64, i64 %sm.b143)
  %sm.a144 = load i32, ptr %ap
  %sm.b144 = zext i32 %sm.a144 to i64
  call void @sm_mem(i64 32, i64 %sm.b144)
  call void @sm_end()
  ret void
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %b = trunc i64 %s to i1
  %c = trunc i64 %s to i8
  %h = trunc i64 %s to i16
  %w = trunc i64 %s to i32
  %f = sitofp i64 %s to float
  %d = sitofp i64 %s to double
  call void @take(i1 %b, i8 %c, i16 %h, i32 %w, i64 %s, float %f, double %d, ptr @cell)
  %s2 = mul i64 %s, -1001
  %b2 = trunc i64 %s2 to i1
  %c2 = trunc i64 %s2 to i8
  %h2 = trunc i64 %s2 to i16
  %w2 = trunc i64 %s2 to i32
  %f2 = fdiv float %f, 7.0
  %d2 = fdiv double %d, 7.0
  %slot = alloca i32, align 4
  store i32 %w2, ptr %slot
  call void @take(i1 %b2, i8 %c2, i16 %h2, i32 %w2, i64 %s2, float %f2, double %d2, ptr %slot)
  ret i32 5
}
