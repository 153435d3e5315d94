; The callee half of a two-object program (tests/programs/int_widths.rs links it with caller.ll,
; each built by patchmap or llc-19): iN arguments and results cross the C ABI in the next larger
; register, whose bits above N the passing side leaves undefined (llc-19 leaves a carry there).
define i64 @widen(i24 %a, i40 %b, i2 %c, i12 %d) noinline {
  %x = zext i24 %a to i64
  %y = zext i40 %b to i64
  %z = sext i2 %c to i64
  %w = sext i12 %d to i64
  %s = add i64 %x, %y
  %t = add i64 %s, %z
  %u = mul i64 %t, %w
  ret i64 %u
}

define i24 @bump24(i24 %a) noinline {
  %t = add i24 %a, 1
  ret i24 %t
}

define i40 @bump40(i40 %a) noinline {
  %t = add i40 %a, 1
  ret i40 %t
}

define i1 @negative12(i12 %a) noinline {
  %t = icmp slt i12 %a, 0
  ret i1 %t
}
