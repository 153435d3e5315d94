; `byval` parameters (issue 27), the callee half: each prints what it received. On both targets LLVM
; passes a `byval` object as a copy in the outgoing argument area, its size rounded up to 8 bytes and
; 8-byte aligned, after the stack arguments before it (AArch64: `CCPassByVal<8, 8>`); the callee
; gets the copy's address, and writes to it are not seen by the caller.
%triple = type { i64, i64, i64 }
%small = type { i32, i16 }

declare i32 @printf(ptr, ...)
@fmt3 = private constant [16 x i8] c"%lld %lld %lld\0A\00"
@fmt2 = private constant [12 x i8] c"%d %d %lld\0A\00"
@fmt5 = private constant [24 x i8] c"%d %d %d %d %d %lld %g\0A\00"

; Only a byval: it is the first thing in the outgoing area.
define i64 @one(ptr byval(%triple) %t) noinline {
  %p1 = getelementptr %triple, ptr %t, i64 0, i32 1
  %p2 = getelementptr %triple, ptr %t, i64 0, i32 2
  %a = load i64, ptr %t
  %b = load i64, ptr %p1
  %c = load i64, ptr %p2
  call i32 (ptr, ...) @printf(ptr @fmt3, i64 %a, i64 %b, i64 %c)
  ; The copy is the callee's: changing it changes nothing of the caller's.
  store i64 -1, ptr %t
  %s = add i64 %a, %b
  %r = add i64 %s, %c
  ret i64 %r
}

; Registers full (eight integers), one stack integer, then a 6-byte byval (8 in the area), a
; 5-byte one, a double in a register and a last stack integer after them.
define i64 @crowded(i64 %r0, i64 %r1, i64 %r2, i64 %r3, i64 %r4, i64 %r5, i64 %r6, i64 %r7, i64 %s8, ptr byval(%small) %m, ptr byval([5 x i8]) %b, double %d, i64 %s9) noinline {
  %m0 = load i32, ptr %m
  %mp = getelementptr %small, ptr %m, i64 0, i32 1
  %m1 = load i16, ptr %mp
  %m1w = sext i16 %m1 to i32
  %sum = add i64 %r0, %r7
  %sum2 = add i64 %sum, %s8
  %sum3 = add i64 %sum2, %s9
  call i32 (ptr, ...) @printf(ptr @fmt2, i32 %m0, i32 %m1w, i64 %sum3)
  %b0p = getelementptr [5 x i8], ptr %b, i64 0, i64 0
  %b4p = getelementptr [5 x i8], ptr %b, i64 0, i64 4
  %b0 = load i8, ptr %b0p
  %b1p = getelementptr [5 x i8], ptr %b, i64 0, i64 1
  %b1 = load i8, ptr %b1p
  %b2p = getelementptr [5 x i8], ptr %b, i64 0, i64 2
  %b2 = load i8, ptr %b2p
  %b3p = getelementptr [5 x i8], ptr %b, i64 0, i64 3
  %b3 = load i8, ptr %b3p
  %b4 = load i8, ptr %b4p
  %w0 = sext i8 %b0 to i32
  %w1 = sext i8 %b1 to i32
  %w2 = sext i8 %b2 to i32
  %w3 = sext i8 %b3 to i32
  %w4 = sext i8 %b4 to i32
  call i32 (ptr, ...) @printf(ptr @fmt5, i32 %w0, i32 %w1, i32 %w2, i32 %w3, i32 %w4, i64 %r3, double %d)
  %mw = sext i32 %m0 to i64
  %r = add i64 %sum3, %mw
  ret i64 %r
}

; Two byval triples around a register argument.
define i64 @pair(ptr byval(%triple) %x, i32 %k, ptr byval(%triple) %y) noinline {
  %xa = call i64 @one(ptr byval(%triple) %x)
  %yp = getelementptr %triple, ptr %y, i64 0, i32 2
  %yc = load i64, ptr %yp
  %ki = sext i32 %k to i64
  %m = mul i64 %yc, %ki
  %r = add i64 %xa, %m
  ret i64 %r
}
