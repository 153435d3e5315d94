; expect: 2:8: error: unsupported calling convention 'fastcc'
define fastcc void @f() {
  ret void
}
