; expect: 3:14: error: floating-point constant '1' must be written with a '.' or in hex
define double @f() {
  ret double 1
}
