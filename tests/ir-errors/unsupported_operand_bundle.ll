; expect: 4:18: error: unsupported operand bundle on 'call'
declare void @g()
define void @f() {
  call void @g() [ "deopt"(i64 1) ]
  ret void
}
