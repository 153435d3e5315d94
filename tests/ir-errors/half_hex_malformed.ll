; expect: 3:12: error: malformed half constant '0xH3C0': 0xH takes 4 hex digits
define half @f() {
  ret half 0xH3C0
}
