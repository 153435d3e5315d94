; expect: 4:1: error: label expected to be numbered '1'
define void @f() {
  br label %5
5:
  ret void
}
