; expect: 3:10: error: integer constant 256 does not fit in i8
define i8 @f() {
  ret i8 256
}
