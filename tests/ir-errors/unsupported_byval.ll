; expect: 2:20: error: unsupported parameter attribute 'byval'
define void @f(ptr byval(i64) %p) {
  ret void
}
