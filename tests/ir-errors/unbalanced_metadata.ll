; expect: 5:7: error: unbalanced '{'
define void @f() {
  ret void
}
!0 = !{!"unbalanced", i32 1
