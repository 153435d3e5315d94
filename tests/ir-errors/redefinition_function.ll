; expect: 3:13: error: redefinition of '@g'
declare void @g()
define void @g() {
  ret void
}
