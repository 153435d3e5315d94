; expect: 3:12: error: unsupported variadic function definition '@sum' with a 'byval' parameter
%pair = type { i64, i64 }
define i32 @sum(ptr byval(%pair) %p, ...) {
  ret i32 0
}
