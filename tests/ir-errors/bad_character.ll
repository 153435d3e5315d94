; expect: 3:12: error: unexpected character '~'
define void @f() {
  ret void ~
}
