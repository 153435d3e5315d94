; expect: 3:12: error: floating-point constant '0.1' is not exactly representable as 'half'
define half @f() {
  ret half 0.1
}
