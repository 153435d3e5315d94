; expect: 3:16: error: '%a' defined with type 'i32' but expected 'i64'
define i64 @f(i32 %a) {
  %s = add i64 %a, 1
  ret i64 %s
}
