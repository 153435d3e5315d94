; expect: 3:11: error: hexadecimal constant '0x10' used where 'i32' is expected
define i32 @f() {
  ret i32 0x10
}
