; expect: 4:3: error: operand bundle "deopt" on a call other than llvm.experimental.gc.statepoint is not supported
declare void @g()
define void @f() {
  call void @g() [ "deopt"(i64 1) ]
  ret void
}
