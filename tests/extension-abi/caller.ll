; The caller half: see callee.ll. Each value passed is computed so that the register holding it has
; bits set or clear above its width unlike the extended value (an i8 of 100 + 100 is 200 in the
; 32-bit register, -56 extended): a side that drops the extension is seen in what main prints.
declare i32 @printf(ptr, ...)
@fmt = private constant [6 x i8] c"%lld\0A\00"
@hundred = global i8 100
@ones = global i16 -1
@widen_pointer = global ptr @widen_s8

declare i32 @widen_s8(i8 signext)
declare i32 @widen_s8_site(i8)
declare i64 @widen_z16(i16 zeroext)
declare i32 @widen_s12(i12 signext)
declare i32 @widen_z1(i1 zeroext)
declare i64 @stacked(i64, i64, i64, i64, i64, i64, i64, i64, i8 signext, i16 zeroext)
declare signext i8 @sum8(i8, i8)
declare zeroext i16 @sum16(i16, i16)
declare signext i12 @sum12(i12, i12)

define void @p(i64 %v) noinline {
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret void
}

define i32 @main() {
  %a = load i8, ptr @hundred
  %a2 = add i8 %a, %a
  %r1 = call i32 @widen_s8(i8 signext %a2)
  %w1 = sext i32 %r1 to i64
  call void @p(i64 %w1)
  %r2 = call i32 @widen_s8_site(i8 signext %a2)
  %w2 = sext i32 %r2 to i64
  call void @p(i64 %w2)
  %f = load ptr, ptr @widen_pointer
  %r3 = call i32 %f(i8 signext %a2)
  %w3 = sext i32 %r3 to i64
  call void @p(i64 %w3)
  %b = load i16, ptr @ones
  %b2 = add i16 %b, %b
  %r4 = call i64 @widen_z16(i16 zeroext %b2)
  call void @p(i64 %r4)
  %c = trunc i16 %b to i12
  %r5 = call i32 @widen_s12(i12 signext %c)
  %w5 = sext i32 %r5 to i64
  call void @p(i64 %w5)
  %d = trunc i8 %a to i1
  %r6 = call i32 @widen_z1(i1 zeroext %d)
  %w6 = sext i32 %r6 to i64
  call void @p(i64 %w6)
  %r7 = call i64 @stacked(i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i8 signext %a2, i16 zeroext %b2)
  call void @p(i64 %r7)
  %r8 = call signext i8 @sum8(i8 %a, i8 %a)
  %w8 = sext i8 %r8 to i64
  call void @p(i64 %w8)
  %r9 = call zeroext i16 @sum16(i16 %b, i16 %b)
  %w9 = zext i16 %r9 to i64
  call void @p(i64 %w9)
  %r10 = call signext i12 @sum12(i12 %c, i12 %c)
  %w10 = sext i12 %r10 to i64
  call void @p(i64 %w10)
  ret i32 0
}
