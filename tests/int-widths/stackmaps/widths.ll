; iN values in stack map records, in registers, across calls (callee-saved registers or spill
; slots) and as constants: llc-19 records a value's size as that of the integer it is promoted to
; (i2 -> i8 on x86-64, i32 on AArch64; i24 -> i32; i40 -> i64) and a constant zero-extended from N
; bits (large ones in the constant pool).
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @clobber()

define i64 @f(i2 %a, i24 %b, i40 %c, i12 %d, i48 %e, i56 %g) {
  %a1 = add i2 %a, 1
  %b1 = mul i24 %b, 3
  %c1 = sub i40 %c, 7
  %d1 = shl i12 %d, 2
  %e1 = xor i48 %e, 5
  %g1 = ashr i56 %g, 3
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i2 %a1, i24 %b1, i40 %c1, i12 %d1, i48 %e1, i56 %g1)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, i2 -1, i24 -1, i40 -1, i12 -1, i48 -1, i56 -1, i2 1, i24 5, i40 549755813887, i33 -4294967296, i7 -64, i63 -1)
  call void @clobber()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 0, i2 %a1, i24 %b1, i40 %c1, i12 %d1, i48 %e1, i56 %g1)
  call void @clobber()
  %x1 = zext i2 %a1 to i64
  %x2 = zext i24 %b1 to i64
  %x3 = zext i40 %c1 to i64
  %x4 = zext i12 %d1 to i64
  %x5 = zext i48 %e1 to i64
  %x6 = zext i56 %g1 to i64
  %s1 = add i64 %x1, %x2
  %s2 = add i64 %s1, %x3
  %s3 = add i64 %s2, %x4
  %s4 = add i64 %s3, %x5
  %s5 = add i64 %s4, %x6
  ret i64 %s5
}
