; expect: 2:12: error: unsupported variadic function definition '@sum' (va_start/va_arg): only calls of variadic functions are supported
define i32 @sum(i32 %n, ...) {
  ret i32 %n
}
