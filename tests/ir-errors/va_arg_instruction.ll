; expect: 3:8: error: unsupported instruction 'va_arg'
define i32 @first(ptr %ap) {
  %v = va_arg ptr %ap, i32
  ret i32 %v
}
