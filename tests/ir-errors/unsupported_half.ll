; expect: 2:8: error: unsupported type 'half'
define half @f() {
  ret half 0xH3C00
}
