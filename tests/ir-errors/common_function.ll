; expect: 2:20: error: definition of '@f' cannot have 'common' linkage
define common void @f() {
  ret void
}
