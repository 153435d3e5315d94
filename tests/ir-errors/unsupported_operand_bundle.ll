; expect: 4:3: error: operand bundle "gc-live" on a call other than llvm.experimental.gc.statepoint
declare void @g()
define void @f() {
  call void @g() [ "gc-live"(ptr null) ]
  ret void
}
