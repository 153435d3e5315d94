; expect: 3:3: error: invalid cast 'bitcast' from 'i64' to 'float'
define float @f(i64 %a) {
  %t = bitcast i64 %a to float
  ret float %t
}
