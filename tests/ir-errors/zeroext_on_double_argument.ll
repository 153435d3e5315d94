; expect: 5:31: error: argument 0: 'zeroext' applies to integers, not 'double'
declare void @g(double)

define void @f(double %x) {
  call void @g(double zeroext %x)
  ret void
}
