; expect: 2:8: error: unsupported type 'i128'
define i128 @f() {
  ret i128 0
}
