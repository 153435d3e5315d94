; The callee half of an i128 two-object program (tests/programs/int_widths.rs links it with
; caller.ll, each built by patchmap or llc-19): i128 arguments in register pairs (x86-64: two
; consecutive GPRs; AArch64: an even/odd pair, skipping an odd register), on the stack in 16-aligned
; slots once the registers run out, with narrower arguments around them; i128 results in two
; registers.
define i128 @mix(i128 %a, i128 %b) noinline {
  %m = mul i128 %a, 3
  %s = sub i128 %m, %b
  ret i128 %s
}

; AArch64: %b skips x1 for x2/x3. x86-64: rdi, then rsi/rdx.
define i128 @after_one(i64 %a, i128 %b, i64 %c) noinline {
  %x = zext i64 %a to i128
  %y = sext i64 %c to i128
  %h = shl i128 %x, 64
  %s = add i128 %h, %b
  %t = add i128 %s, %y
  ret i128 %t
}

; x86-64: five registers taken, %v goes to the stack (16-aligned), %t after it.
; AArch64: x0-x4, %v in x6/x7, %t on the stack.
define i128 @after_five(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i128 %v, i64 %t) noinline {
  %s1 = add i64 %a, %b
  %s2 = add i64 %s1, %c
  %s3 = add i64 %s2, %d
  %s4 = add i64 %s3, %e
  %s5 = mul i64 %s4, %t
  %w = zext i64 %s5 to i128
  %r = xor i128 %w, %v
  ret i128 %r
}

; Past the registers on both targets: %e (and %d on x86-64) on the stack, then an i32 and an i128.
define i128 @five(i128 %a, i128 %b, i128 %c, i128 %d, i128 %e, i32 %f, i128 %g) noinline {
  %x1 = mul i128 %a, 2
  %x2 = add i128 %x1, %b
  %x3 = mul i128 %x2, 2
  %x4 = add i128 %x3, %c
  %x5 = mul i128 %x4, 2
  %x6 = add i128 %x5, %d
  %x7 = mul i128 %x6, 2
  %x8 = add i128 %x7, %e
  %w = sext i32 %f to i128
  %x9 = mul i128 %x8, %w
  %x10 = xor i128 %x9, %g
  ret i128 %x10
}

define i64 @halves(i128 %v) noinline {
  %l = trunc i128 %v to i64
  %s = lshr i128 %v, 64
  %h = trunc i128 %s to i64
  %x = mul i64 %h, 1000003
  %r = add i64 %x, %l
  ret i64 %r
}

; AArch64: x0-x6 taken; %v may not start at x7, so it goes on the stack, and %t after it too
; (LLVM leaves x7 unused, AAPCS64 C.15). x86-64: %g and %v on the stack, %t too.
define i128 @after_seven(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i128 %v, i64 %t) noinline {
  %w = zext i64 %t to i128
  %x = shl i128 %w, 32
  %y = xor i128 %x, %v
  %z = zext i64 %g to i128
  %r = add i128 %y, %z
  ret i128 %r
}
