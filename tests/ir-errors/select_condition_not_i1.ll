; expect: 3:15: error: 'select' condition must be i1, found i64
define i64 @f(i64 %c) {
  %r = select i64 %c, i64 1, i64 2
  ret i64 %r
}
