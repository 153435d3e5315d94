; expect: 4:17: error: call type 'i64 (i64)' does not match '@g' of type 'i64 (i64, i64)'
declare i64 @g(i64, i64)
define i64 @f() {
  %r = call i64 @g(i64 1)
  ret i64 %r
}
