; The caller half: see callee.ll.
declare i32 @printf(ptr, ...)
@fmt = private constant [14 x i8] c"%016lx%016lx\0A\00"
declare i128 @mix(i128, i128)
declare i128 @after_one(i64, i128, i64)
declare i128 @after_five(i64, i64, i64, i64, i64, i128, i64)
declare i128 @five(i128, i128, i128, i128, i128, i32, i128)
declare i64 @halves(i128)
declare i128 @after_seven(i64, i64, i64, i64, i64, i64, i64, i128, i64)

define void @show(i128 %v) noinline {
  %lo = trunc i128 %v to i64
  %h = lshr i128 %v, 64
  %hi = trunc i128 %h to i64
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %hi, i64 %lo)
  ret void
}

define i32 @main() {
  %a = call i128 @mix(i128 u0x0123456789ABCDEF0FEDCBA987654321, i128 -98765432109876543210)
  call void @show(i128 %a)
  %b = call i128 @after_one(i64 -2, i128 u0xFFFFFFFFFFFFFFFF0000000000000007, i64 -9)
  call void @show(i128 %b)
  %c = call i128 @after_five(i64 1, i64 2, i64 3, i64 4, i64 5, i128 u0xAAAAAAAAAAAAAAAA5555555555555555, i64 77)
  call void @show(i128 %c)
  %d = call i128 @five(i128 1, i128 -2, i128 u0x30000000000000003, i128 -4, i128 u0x50000000000000005, i32 -6, i128 u0x77777777777777778888888888888888)
  call void @show(i128 %d)
  %e = call i64 @halves(i128 u0x00000000000000110000000000000022)
  %e128 = zext i64 %e to i128
  call void @show(i128 %e128)
  %f = call i128 @after_seven(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i128 u0x0000000900000000000000000000000A, i64 11)
  call void @show(i128 %f)
  ret i32 0
}
