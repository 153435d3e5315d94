; expect: 2:18: error: unsupported function attribute 'section'
define void @f() section ".text.hot" {
  ret void
}
