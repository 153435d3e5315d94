; expect: 3:12: error: use of undefined label '%nowhere'
define void @f() {
  br label %nowhere
}
