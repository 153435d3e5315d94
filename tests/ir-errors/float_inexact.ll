; expect: 3:13: error: floating-point constant '0.1' is not exactly representable as 'float'
define float @f() {
  ret float 0.1
}
