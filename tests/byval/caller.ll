; `byval` arguments (issue 27), the caller half: see callee.ll. After each call it prints its own
; objects again, which the callees' writes to their copies must not have changed.
%triple = type { i64, i64, i64 }
%small = type { i32, i16 }

declare i32 @printf(ptr, ...)
declare i64 @one(ptr byval(%triple))
declare i64 @crowded(i64, i64, i64, i64, i64, i64, i64, i64, i64, ptr byval(%small), ptr byval([5 x i8]), double, i64)
declare i64 @pair(ptr byval(%triple), i32, ptr byval(%triple))
@fmt = private constant [13 x i8] c"= %lld %lld\0A\00"
@bytes = global [5 x i8] c"\01\FE\03\FC\05"

define i32 @main() {
  %t = alloca %triple
  store i64 100, ptr %t
  %t1 = getelementptr %triple, ptr %t, i64 0, i32 1
  store i64 20, ptr %t1
  %t2 = getelementptr %triple, ptr %t, i64 0, i32 2
  store i64 3, ptr %t2
  %u = alloca %triple
  store i64 7000, ptr %u
  %u1 = getelementptr %triple, ptr %u, i64 0, i32 1
  store i64 800, ptr %u1
  %u2 = getelementptr %triple, ptr %u, i64 0, i32 2
  store i64 90, ptr %u2
  %m = alloca %small
  store i32 -5, ptr %m
  %mp = getelementptr %small, ptr %m, i64 0, i32 1
  store i16 -300, ptr %mp
  %a = call i64 @one(ptr byval(%triple) %t)
  %a0 = load i64, ptr %t
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %a, i64 %a0)
  %b = call i64 @crowded(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, ptr byval(%small) %m, ptr byval([5 x i8]) @bytes, double 2.5, i64 10)
  %m0 = load i32, ptr %m
  %m0w = sext i32 %m0 to i64
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %b, i64 %m0w)
  %c = call i64 @pair(ptr byval(%triple) %t, i32 3, ptr byval(%triple) %u)
  %u0 = load i64, ptr %u
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %c, i64 %u0)
  ret i32 0
}
