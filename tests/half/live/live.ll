; half values live at stack maps, for the run-time location checker (tests/stackmaps/half.rs):
; computed from a writable global (nothing folds), recorded in registers (ID 1), across calls that
; clobber every caller-saved register (ID 2: spill slots on x86-64, callee-saved registers or slots
; on AArch64) and as constants (ID 3). Each execution is announced first by a line "S<id>" with one
; token " 16:<hex>" per location: the half's bits, which the location's low 16 bits must hold.
declare i32 @printf(ptr, ...)
declare void @llvm.experimental.stackmap(i64, i32, ...)
@vals = global [3 x i16] [i16 15361, i16 1023, i16 50432]
@fmt3 = private constant [23 x i8] c"S%d 16:%x 16:%x 16:%x\0A\00"

define internal void @announce(i32 %id, half %a, half %b, half %c) noinline {
  %ab = bitcast half %a to i16
  %bb = bitcast half %b to i16
  %cb = bitcast half %c to i16
  %aw = zext i16 %ab to i32
  %bw = zext i16 %bb to i32
  %cw = zext i16 %cb to i32
  call i32 (ptr, ...) @printf(ptr @fmt3, i32 %id, i32 %aw, i32 %bw, i32 %cw)
  ret void
}

define internal half @load(i64 %i) noinline {
  %p = getelementptr [3 x i16], ptr @vals, i64 0, i64 %i
  %b = load i16, ptr %p
  %h = bitcast i16 %b to half
  ret half %h
}

define i32 @main() {
  %x = call half @load(i64 0)
  %y = call half @load(i64 1)
  %z = call half @load(i64 2)
  %s = fadd half %x, %y
  %m = fmul half %y, %z
  %d = fdiv half %z, %x
  call void @announce(i32 1, half %s, half %m, half %d)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, half %s, half %m, half %d)
  call void @announce(i32 2, half %s, half %m, half %d)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, half %s, half %m, half %d)
  call void @announce(i32 3, half 0xH3C00, half 0xH8001, half 0xH7C00)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 0, half 0xH3C00, half 0xH8001, half 0xH7C00)
  %t = fadd half %s, %m
  %u = fadd half %t, %d
  %ub = bitcast half %u to i16
  %r = zext i16 %ub to i32
  %r7 = and i32 %r, 127
  ret i32 %r7
}
