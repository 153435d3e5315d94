; expect: 3:19: error: expected ',' between the operands, found '%b'
define i64 @f(i64 %a, i64 %b) {
  %s = add i64 %a %b
  ret i64 %s
}
