; The callee half of a two-object program (tests/programs/half.rs links it with caller.ll, each
; built by patchmap or llc-19): half arguments and results cross the C ABI in the low 16 bits of an
; XMM register (x86-64, clang-19's _Float16) or in an H register (AArch64); past the eight vector
; argument registers they go on the stack, between float, double and integer arguments.
declare i32 @printf(ptr, ...)
@fmt = private constant [6 x i8] c"%llx\0A\00"

define internal void @p(i64 %v) noinline {
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret void
}

define internal void @ph(half %h) noinline {
  %b = bitcast half %h to i16
  %w = zext i16 %b to i64
  call void @p(i64 %w)
  ret void
}

; Twelve halves with a float, an i32 and a double among them: h8..h11 and the double on the stack.
define half @many(half %h0, half %h1, half %h2, half %h3, half %h4, half %h5, half %h6, half %h7, float %f, i32 %i, half %h8, double %d, half %h9, half %h10, half %h11) noinline {
  call void @ph(half %h0)
  call void @ph(half %h1)
  call void @ph(half %h2)
  call void @ph(half %h3)
  call void @ph(half %h4)
  call void @ph(half %h5)
  call void @ph(half %h6)
  call void @ph(half %h7)
  call void @ph(half %h8)
  call void @ph(half %h9)
  call void @ph(half %h10)
  call void @ph(half %h11)
  %fb = bitcast float %f to i32
  %fw = zext i32 %fb to i64
  call void @p(i64 %fw)
  %iw = sext i32 %i to i64
  call void @p(i64 %iw)
  %db = bitcast double %d to i64
  call void @p(i64 %db)
  %s0 = fadd half %h0, %h1
  %s1 = fadd half %s0, %h2
  %s2 = fadd half %s1, %h3
  %s3 = fadd half %s2, %h4
  %s4 = fadd half %s3, %h5
  %s5 = fadd half %s4, %h6
  %s6 = fadd half %s5, %h7
  %s7 = fadd half %s6, %h8
  %s8 = fadd half %s7, %h9
  %s9 = fadd half %s8, %h10
  %s10 = fadd half %s9, %h11
  ret half %s10
}

define half @half_of_double(double %d) noinline {
  %h = fptrunc double %d to half
  ret half %h
}

define float @widen(half %h) noinline {
  %f = fpext half %h to float
  ret float %f
}
