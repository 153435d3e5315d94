; expect: 3:16: error: use of %x does not dominate its use in 'add'
define i64 @f(i64 %a) {
  %y = add i64 %x, 2
  %x = add i64 %a, 1
  ret i64 %y
}
