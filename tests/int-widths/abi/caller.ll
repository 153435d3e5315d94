; The caller half: see callee.ll.
declare i32 @printf(ptr, ...)
@fmt = private constant [6 x i8] c"%llx\0A\00"
declare i64 @widen(i24, i40, i2, i12)
declare i24 @bump24(i24)
declare i40 @bump40(i40)
declare i1 @negative12(i12)

define void @p(i64 %v) noinline {
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret void
}

define i32 @main() {
  ; 0 + (2^N - 1): llc-19 computes it as 0 - 1, leaving the bits above N set in the register.
  %a = call i24 @bump24(i24 16777215)
  %a2 = add i24 %a, 16777215
  %b = call i40 @bump40(i40 -1)
  %b2 = add i40 %b, 1099511627775
  %c = add i2 1, 1
  %d = add i12 2047, 2047
  %r = call i64 @widen(i24 %a2, i40 %b2, i2 %c, i12 %d)
  call void @p(i64 %r)
  %r2 = call i64 @widen(i24 %a2, i40 -1, i2 -1, i12 -2048)
  call void @p(i64 %r2)
  %za = zext i24 %a to i64
  call void @p(i64 %za)
  %zb = zext i40 %b to i64
  call void @p(i64 %zb)
  %n1 = call i1 @negative12(i12 %d)
  %n2 = call i1 @negative12(i12 2047)
  %z1 = zext i1 %n1 to i64
  call void @p(i64 %z1)
  %z2 = zext i1 %n2 to i64
  call void @p(i64 %z2)
  ret i32 0
}
