; expect: 3:14: error: unsupported floating-point literal '0xK4000C000000000000000'
define double @f() {
  ret double 0xK4000C000000000000000
}
