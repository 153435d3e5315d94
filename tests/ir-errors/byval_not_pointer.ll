; expect: 2:20: error: 'byval' and 'sret' apply to 'ptr' parameters, not 'i64'
define void @f(i64 byval(i64) %p) {
  ret void
}
