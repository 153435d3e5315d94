; expect: 2:8: error: 'thread_local' applies to global variables, not functions
define thread_local void @f() {
  ret void
}
