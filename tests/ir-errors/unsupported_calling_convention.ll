; expect: 2:8: error: unsupported calling convention 'preserve_mostcc'
define preserve_mostcc void @f() {
  ret void
}
