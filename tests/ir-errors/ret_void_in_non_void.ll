; expect: 3:3: error: 'ret void' but '@f' returns 'i64'
define i64 @f() {
  ret void
}
