; expect: 2:27: error: 'signext' and 'zeroext' cannot be combined
define void @f(i8 signext zeroext %x) {
  ret void
}
