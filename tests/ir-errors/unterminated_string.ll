; expect: 2:19: error: unterminated string constant
source_filename = "abc
define void @f() {
  ret void
}
