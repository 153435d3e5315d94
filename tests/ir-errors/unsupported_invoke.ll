; expect: 4:3: error: unsupported instruction 'invoke'
declare void @g()
define void @f() {
  invoke void @g() to label %ok unwind label %bad
ok:
  ret void
bad:
  ret void
}
