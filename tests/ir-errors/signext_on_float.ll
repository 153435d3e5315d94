; expect: 2:13: error: parameter 0 of '@f': 'signext' applies to integers, not 'float'
define void @f(float signext %x) {
  ret void
}
