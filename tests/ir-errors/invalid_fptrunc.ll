; expect: 3:3: error: invalid cast 'fptrunc' from 'float' to 'double'
define double @f(float %a) {
  %t = fptrunc float %a to double
  ret double %t
}
