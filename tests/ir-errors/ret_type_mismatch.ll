; expect: 3:11: error: 'ret' returns 'i32' but '@f' returns 'i64'
define i64 @f() {
  ret i32 1
}
