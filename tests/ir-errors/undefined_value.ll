; expect: 3:20: error: use of undefined value '%y'
define i64 @f(i64 %x) {
  %s = add i64 %x, %y
  ret i64 %s
}
