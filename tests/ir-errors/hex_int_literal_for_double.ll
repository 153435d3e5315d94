; expect: 3:14: error: integer constant 'u0x10' used where 'double' is expected
define double @f() {
  ret double u0x10
}
