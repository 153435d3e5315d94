; Narrow-integer arithmetic: add/sub/mul wrapping at i8, i16, i32 and i64; sext vs zext vs trunc; lshr
; vs ashr; udiv vs sdiv and urem vs srem on negative operands; shl dropping bits; and the nsw, nuw and
; exact flags on operations that honour them. Operands come from mutable globals so that the
; instructions run. Exit status: checksum & 0x7f.
source_filename = "wraparound_i8_i16_i32.ll"

@b = internal global [4 x i8] [i8 200, i8 100, i8 -7, i8 2]
@h = internal global [4 x i16] [i16 30000, i16 -30000, i16 -7, i16 3], align 2
@w = internal global [4 x i32] [i32 2147483647, i32 -2147483648, i32 -7, i32 305419896], align 4
@q = internal global [2 x i64] [i64 9223372036854775807, i64 -6148914691236517205], align 8
@checksum = internal global i64 0

declare i32 @putchar(i32)

define internal void @print_u64(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @print_u64(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

; Prints a signed value and a space, and mixes it into @checksum.
define internal void @emit(i64 %v) {
entry:
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %digits
minus:
  call i32 @putchar(i32 45)
  br label %digits
digits:
  %mag0 = sub i64 0, %v
  %mag = select i1 %neg, i64 %mag0, i64 %v
  call void @print_u64(i64 %mag)
  call i32 @putchar(i32 32)
  %old = load i64, ptr @checksum
  %mix = mul i64 %old, 1099511628211
  %new = xor i64 %mix, %v
  store i64 %new, ptr @checksum
  ret void
}

define internal void @emit8(i8 %v) {
  %s = sext i8 %v to i64
  call void @emit(i64 %s)
  ret void
}

define internal void @emit16(i16 %v) {
  %s = sext i16 %v to i64
  call void @emit(i64 %s)
  ret void
}

define internal void @emit32(i32 %v) {
  %s = sext i32 %v to i64
  call void @emit(i64 %s)
  ret void
}

define i32 @main() {
entry:
  ; ---- i8 ----
  %pb1 = getelementptr inbounds [4 x i8], ptr @b, i64 0, i64 1
  %pb2 = getelementptr inbounds [4 x i8], ptr @b, i64 0, i64 2
  %pb3 = getelementptr inbounds [4 x i8], ptr @b, i64 0, i64 3
  %b0 = load i8, ptr @b
  %b1 = load i8, ptr %pb1
  %b2 = load i8, ptr %pb2
  %b3 = load i8, ptr %pb3
  %a8 = add i8 %b0, %b1            ; 300 wraps to 44
  call void @emit8(i8 %a8)
  %s8 = sub i8 %b1, %b0            ; -100
  call void @emit8(i8 %s8)
  %m8 = mul i8 %b0, %b1            ; 20000 mod 256 = 32
  call void @emit8(i8 %m8)
  %ud8 = udiv i8 %b2, %b3          ; 249 / 2 = 124
  call void @emit8(i8 %ud8)
  %sd8 = sdiv i8 %b2, %b3          ; -7 / 2 = -3
  call void @emit8(i8 %sd8)
  %ur8 = urem i8 %b2, %b3          ; 1
  call void @emit8(i8 %ur8)
  %sr8 = srem i8 %b2, %b3          ; -1
  call void @emit8(i8 %sr8)
  %ls8 = lshr i8 %b0, 3            ; 200 >> 3 = 25
  call void @emit8(i8 %ls8)
  %as8 = ashr i8 %b0, 3            ; -56 >> 3 = -7
  call void @emit8(i8 %as8)
  %sh8 = shl i8 %b0, %b3           ; 800 mod 256 = 32
  call void @emit8(i8 %sh8)
  %zx8 = zext i8 %b0 to i32
  call void @emit32(i32 %zx8)
  %sx8 = sext i8 %b0 to i32
  call void @emit32(i32 %sx8)
  %zx8_16 = zext i8 %b2 to i16
  call void @emit16(i16 %zx8_16)
  %n8 = sub i8 0, %b0
  call void @emit8(i8 %n8)
  %x8 = xor i8 %b0, -1
  call void @emit8(i8 %x8)
  call i32 @putchar(i32 10)
  ; ---- i16 ----
  %ph1 = getelementptr inbounds [4 x i16], ptr @h, i64 0, i64 1
  %ph2 = getelementptr inbounds [4 x i16], ptr @h, i64 0, i64 2
  %ph3 = getelementptr inbounds [4 x i16], ptr @h, i64 0, i64 3
  %h0 = load i16, ptr @h
  %h1 = load i16, ptr %ph1
  %h2 = load i16, ptr %ph2
  %h3 = load i16, ptr %ph3
  %a16 = add i16 %h0, %h0          ; 60000 reads as -5536
  call void @emit16(i16 %a16)
  %s16 = sub i16 %h1, %h0          ; -60000 wraps to 5536
  call void @emit16(i16 %s16)
  %m16 = mul i16 %h0, %h3          ; 90000 mod 65536 = 24464
  call void @emit16(i16 %m16)
  %ud16 = udiv i16 %h2, %h3        ; 65529 / 3 = 21843
  call void @emit16(i16 %ud16)
  %sd16 = sdiv i16 %h2, %h3        ; -2
  call void @emit16(i16 %sd16)
  %ur16 = urem i16 %h2, %h3        ; 0
  call void @emit16(i16 %ur16)
  %sr16 = srem i16 %h2, %h3        ; -1
  call void @emit16(i16 %sr16)
  %sr16b = srem i16 %h3, -2        ; 3 rem -2 = 1: the sign follows the dividend
  call void @emit16(i16 %sr16b)
  %ls16 = lshr i16 %h1, 4
  call void @emit16(i16 %ls16)
  %as16 = ashr i16 %h1, 4
  call void @emit16(i16 %as16)
  %t16 = trunc i16 %h1 to i8
  call void @emit8(i8 %t16)
  %zx16 = zext i16 %h1 to i64
  call void @emit(i64 %zx16)
  call i32 @putchar(i32 10)
  ; ---- i32 ----
  %pw1 = getelementptr inbounds [4 x i32], ptr @w, i64 0, i64 1
  %pw2 = getelementptr inbounds [4 x i32], ptr @w, i64 0, i64 2
  %pw3 = getelementptr inbounds [4 x i32], ptr @w, i64 0, i64 3
  %w0 = load i32, ptr @w
  %w1 = load i32, ptr %pw1
  %w2 = load i32, ptr %pw2
  %w3 = load i32, ptr %pw3
  %a32 = add i32 %w0, 1            ; INT_MAX + 1 = INT_MIN
  call void @emit32(i32 %a32)
  %s32 = sub i32 %w1, 1            ; INT_MIN - 1 = INT_MAX
  call void @emit32(i32 %s32)
  %m32 = mul i32 %w3, %w3
  call void @emit32(i32 %m32)
  %ud32 = udiv i32 %w1, %w2        ; 2147483648 / 4294967289 = 0
  call void @emit32(i32 %ud32)
  %sd32 = sdiv i32 %w1, %w2        ; -2147483648 / -7 = 306783378
  call void @emit32(i32 %sd32)
  %ur32 = urem i32 %w2, 10         ; 4294967289 mod 10 = 9
  call void @emit32(i32 %ur32)
  %sr32 = srem i32 %w1, %w2        ; -2
  call void @emit32(i32 %sr32)
  %ls32 = lshr i32 %w2, 28
  call void @emit32(i32 %ls32)
  %as32 = ashr i32 %w2, 28
  call void @emit32(i32 %as32)
  %sh32 = shl i32 %w3, 31
  call void @emit32(i32 %sh32)
  %t32_16 = trunc i32 %w3 to i16   ; 0x5678
  call void @emit16(i16 %t32_16)
  %t32_8 = trunc i32 %w3 to i8     ; 0x78
  call void @emit8(i8 %t32_8)
  %t32_1 = trunc i32 %w2 to i1     ; low bit of -7 is 1
  %z1 = zext i1 %t32_1 to i32
  call void @emit32(i32 %z1)
  %sx32 = sext i32 %w2 to i64
  call void @emit(i64 %sx32)
  %zx32 = zext i32 %w2 to i64
  call void @emit(i64 %zx32)
  call i32 @putchar(i32 10)
  ; ---- i64 ----
  %pq1 = getelementptr inbounds [2 x i64], ptr @q, i64 0, i64 1
  %q0 = load i64, ptr @q
  %q1 = load i64, ptr %pq1
  %a64 = add i64 %q0, %q0
  call void @emit(i64 %a64)
  %m64 = mul i64 %q1, %q1
  call void @emit(i64 %m64)
  %ud64 = udiv i64 %q1, 1000
  call void @emit(i64 %ud64)
  %sd64 = sdiv i64 %q1, 1000
  call void @emit(i64 %sd64)
  %ur64 = urem i64 %q1, 1000
  call void @emit(i64 %ur64)
  %sr64 = srem i64 %q1, 1000
  call void @emit(i64 %sr64)
  %ls64 = lshr i64 %q1, 63
  call void @emit(i64 %ls64)
  %as64 = ashr i64 %q1, 63
  call void @emit(i64 %as64)
  %t64 = trunc i64 %q1 to i32
  call void @emit32(i32 %t64)
  call i32 @putchar(i32 10)
  ; ---- flags on operations that do not violate them ----
  %f1 = add nsw i32 %w3, 1
  %f2 = add nuw i8 %b1, 100        ; 200 fits unsigned
  %f3 = sub nsw i16 %h2, 3
  %f4 = sub nuw i32 %w3, 1
  %f5 = mul nsw i16 %h3, -1000
  %f6 = mul nuw nsw i64 %ud64, 3
  %f7 = shl nuw i8 %b3, 6          ; 128 keeps every set bit
  %f8 = shl nsw i32 %w2, 4         ; -112 keeps the sign
  %f9 = sdiv exact i32 %w1, 4
  %f10 = udiv exact i16 %h3, 3
  %f11 = lshr exact i8 %b0, 3      ; 200 = 25 << 3
  %f12 = ashr exact i16 %h1, 4     ; -30000 = -1875 << 4
  call void @emit32(i32 %f1)
  call void @emit8(i8 %f2)
  call void @emit16(i16 %f3)
  call void @emit32(i32 %f4)
  call void @emit16(i16 %f5)
  call void @emit(i64 %f6)
  call void @emit8(i8 %f7)
  call void @emit32(i32 %f8)
  call void @emit32(i32 %f9)
  call void @emit16(i16 %f10)
  call void @emit8(i8 %f11)
  call void @emit16(i16 %f12)
  call i32 @putchar(i32 10)
  %sum = load i64, ptr @checksum
  call void @print_u64(i64 %sum)
  call i32 @putchar(i32 10)
  %st = trunc i64 %sum to i32
  %status = and i32 %st, 127
  ret i32 %status
}
