; expect: 3:13: error: use of undefined value '@nope'
define void @f() {
  call void @nope()
  ret void
}
