; expect: 2:8: error: unsupported linkage 'weak'
define weak void @f() {
  ret void
}
