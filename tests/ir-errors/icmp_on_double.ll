; expect: 3:16: error: 'icmp' requires integer or pointer operands, found 'double'
define i1 @f(double %x) {
  %c = icmp eq double %x, %x
  ret i1 %c
}
