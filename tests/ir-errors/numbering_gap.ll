; expect: 3:3: error: instruction expected to be numbered '%2'
define i64 @f(i64) {
  %3 = add i64 %0, 1
  ret i64 %3
}
