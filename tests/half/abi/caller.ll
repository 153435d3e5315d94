; The caller half: see callee.ll.
declare i32 @printf(ptr, ...)
@fmt = private constant [6 x i8] c"%llx\0A\00"
declare half @many(half, half, half, half, half, half, half, half, float, i32, half, double, half, half, half)
declare half @half_of_double(double)
declare float @widen(half)

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

define i32 @main() {
  %r = call half @many(half 0xH3C00, half 0xH8001, half 0xH7BFF, half 0xH7C00, half 0xH0400, half 0xHC500, half 0xH3555, half 0xH7E00, float 1.5, i32 -7, half 0xH03FF, double 2.5, half 0xH4248, half 0xHFBFF, half 0xH1000)
  call void @ph(half %r)
  %t = call half @half_of_double(double 0x3FF0020000001000)
  call void @ph(half %t)
  %w = call float @widen(half %t)
  %wb = bitcast float %w to i32
  %ww = zext i32 %wb to i64
  call void @p(i64 %ww)
  ret i32 0
}
