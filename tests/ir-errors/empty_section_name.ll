; expect: 2:26: error: a section name must be non-empty and contain no NUL
define void @f() section "" {
  ret void
}
