; A variadic definition handing its arguments to vprintf twice (issue 27, item 4): va_start,
; va_copy and va_end, with integers, doubles and pointers, more than the argument registers hold.
; Target-neutral: x86-64's va_list (24 bytes) and AArch64's (32, passed by reference) both fit.
@.fmt = private unnamed_addr constant [46 x i8] c"%d %s %.2f %ld %.1f %d %d %d %d %d %.3f %.1f\0A\00"
@.word = private unnamed_addr constant [5 x i8] c"word\00"

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_copy.p0(ptr, ptr)
declare void @llvm.va_end.p0(ptr)
declare i32 @vprintf(ptr, ptr)

define internal i32 @twice(ptr %fmt, ...) noinline {
  %ap = alloca [32 x i8], align 16
  %copy = alloca [32 x i8], align 16
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_copy.p0(ptr %copy, ptr %ap)
  %a = call i32 @vprintf(ptr %fmt, ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  %b = call i32 @vprintf(ptr %fmt, ptr %copy)
  call void @llvm.va_end.p0(ptr %copy)
  %n = add i32 %a, %b
  ret i32 %n
}

define i32 @main() {
  %n = call i32 (ptr, ...) @twice(ptr @.fmt, i32 7, ptr @.word, double 2.5, i64 1099511627776, double -0.5, i32 1, i32 2, i32 3, i32 4, i32 5, double 0.125, double 9.0)
  %r = and i32 %n, 255
  ret i32 %r
}
