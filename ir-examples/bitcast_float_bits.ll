; Bit-level views of floating point: bitcast float<->i32 and double<->i64, taking apart sign, exponent
; and mantissa with lshr/and, flipping the sign bit with xor and checking it against fneg, building a
; double from an exponent (2^k via bits), ulp steps by incrementing the bits, and ptr-to-ptr bitcast.
; NaN bits are never printed: the default NaN's sign differs between x86-64 and aarch64.
; Exit status: the unbiased exponent of 1e10 (33) plus the low byte of the bits of 1.0f + 1 ulp (34).
source_filename = "bitcast_float_bits.ll"

@vals = internal global [3 x double] [double 1.000000e+10, double 0xBFB999999999999A, double 0x7FEFFFFFFFFFFFFF]
@fval = internal global float 1.0

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

define internal void @out(i64 %v) {
  call void @print_u64(i64 %v)
  call i32 @putchar(i32 32)
  ret void
}

; Prints sign, biased exponent and mantissa of x, and returns the unbiased exponent.
define internal i64 @decompose(double %x) {
  %bits = bitcast double %x to i64
  %sign = lshr i64 %bits, 63
  %e_sh = lshr i64 %bits, 52
  %exp = and i64 %e_sh, 2047
  %man = and i64 %bits, 4503599627370495
  call void @out(i64 %sign)
  call void @out(i64 %exp)
  call void @out(i64 %man)
  call i32 @putchar(i32 10)
  %unb = sub i64 %exp, 1023
  ret i64 %unb
}

define i32 @main() {
entry:
  %p1 = getelementptr inbounds [3 x double], ptr @vals, i64 0, i64 1
  %p2 = getelementptr inbounds [3 x double], ptr @vals, i64 0, i64 2
  %v0 = load double, ptr @vals
  %v1 = load double, ptr %p1
  %v2 = load double, ptr %p2
  %e0 = call i64 @decompose(double %v0)
  %e1 = call i64 @decompose(double %v1)
  %e2 = call i64 @decompose(double %v2)
  ; xor of the sign bit equals fneg.
  %b1 = bitcast double %v1 to i64
  %flipped = xor i64 %b1, -9223372036854775808
  %back = bitcast i64 %flipped to double
  %neg = fneg double %v1
  %eq = fcmp oeq double %back, %neg
  %eq_i = zext i1 %eq to i64
  call void @out(i64 %eq_i)
  ; 2^10 built from its exponent field, then used in arithmetic.
  %e_field = shl i64 1033, 52
  %pow = bitcast i64 %e_field to double
  %prod = fmul double %pow, 3.0
  %prod_i = fptosi double %prod to i64
  call void @out(i64 %prod_i)
  ; The next double after the largest finite one is +inf.
  %b2 = bitcast double %v2 to i64
  %b2n = add i64 %b2, 1
  %inf = bitcast i64 %b2n to double
  %is_inf = fcmp oeq double %inf, 0x7FF0000000000000
  %is_inf_i = zext i1 %is_inf to i64
  call void @out(i64 %is_inf_i)
  call i32 @putchar(i32 10)
  ; float: 1.0f is 0x3F800000; one ulp up is 1 + 2^-23.
  %f = load float, ptr @fval
  %fb = bitcast float %f to i32
  %fb64 = zext i32 %fb to i64
  call void @out(i64 %fb64)
  %fb1 = add i32 %fb, 1
  %f1 = bitcast i32 %fb1 to float
  %diff = fsub float %f1, %f
  %diff_d = fpext float %diff to double
  %diff_bits = bitcast double %diff_d to i64
  call void @out(i64 %diff_bits)
  %halfbits = bitcast float 5.000000e-01 to i32
  %hb64 = zext i32 %halfbits to i64
  call void @out(i64 %hb64)
  ; i32 -> float -> i32 round trip through bits is the identity.
  %mid = bitcast i32 1234567891 to float
  %rt = bitcast float %mid to i32
  %rt64 = zext i32 %rt to i64
  call void @out(i64 %rt64)
  call i32 @putchar(i32 10)
  ; bitcast between pointers is a no-op.
  %slot = alloca i64
  %alias = bitcast ptr %slot to ptr
  store i64 %b1, ptr %alias
  %reload = load i64, ptr %slot
  %same = icmp eq i64 %reload, %b1
  %same_i = zext i1 %same to i64
  call void @out(i64 %same_i)
  call i32 @putchar(i32 10)
  %man_low = and i32 %fb1, 255
  %st0 = trunc i64 %e0 to i32
  %st = add i32 %st0, %man_low
  ret i32 %st
}
