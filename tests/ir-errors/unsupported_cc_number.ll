; expect: 4:8: error: unsupported calling convention 'cc 10'
declare void @g()
define void @f() {
  call cc 10 void @g()
  ret void
}
