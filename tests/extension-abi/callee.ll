; The callee half of a two-object program (tests/programs/extension_abi.rs links it with
; caller.ll, each built by patchmap or llc-19): `signext` and `zeroext` arguments and results. The
; passing side extends the value to 32 bits; llc-19's receiving side relies on it (its callees read
; the 32-bit register as the extended value, and on AArch64 its callers read results so too).
define i32 @widen_s8(i8 signext %a) noinline {
  %x = sext i8 %a to i32
  ret i32 %x
}

; The caller declares it without attributes and puts `signext` on its call site.
define i32 @widen_s8_site(i8 signext %a) noinline {
  %x = sext i8 %a to i32
  ret i32 %x
}

define i64 @widen_z16(i16 zeroext %a) noinline {
  %x = zext i16 %a to i64
  ret i64 %x
}

define i32 @widen_s12(i12 signext %a) noinline {
  %x = sext i12 %a to i32
  ret i32 %x
}

define i32 @widen_z1(i1 zeroext %a) noinline {
  %x = zext i1 %a to i32
  ret i32 %x
}

; Past the argument registers of both targets: the extended values go on the stack.
define i64 @stacked(i64 %r0, i64 %r1, i64 %r2, i64 %r3, i64 %r4, i64 %r5, i64 %r6, i64 %r7, i8 signext %a, i16 zeroext %b) noinline {
  %x = sext i8 %a to i64
  %y = zext i16 %b to i64
  %s = add i64 %x, %y
  %t = add i64 %s, %r7
  ret i64 %t
}

define signext i8 @sum8(i8 %a, i8 %b) noinline {
  %s = add i8 %a, %b
  ret i8 %s
}

define zeroext i16 @sum16(i16 %a, i16 %b) noinline {
  %s = add i16 %a, %b
  ret i16 %s
}

define signext i12 @sum12(i12 %a, i12 %b) noinline {
  %s = add i12 %a, %b
  ret i12 %s
}
