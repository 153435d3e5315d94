; expect: 3:3: error: invalid cast 'fptrunc' from 'half' to 'float'
define float @f(half %h) {
  %t = fptrunc half %h to float
  ret float %t
}
