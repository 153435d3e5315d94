; expect: 2:19: error: 'ptr*' is not a type (use 'ptr')
define void @f(ptr* %p) {
  ret void
}
