; expect: 2:8: error: unsupported type 'bfloat'
define bfloat @f() {
  ret bfloat 0xR3F80
}
