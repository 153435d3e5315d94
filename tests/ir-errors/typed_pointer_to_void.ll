; expect: 2:20: error: 'void*' is not a type (use 'ptr')
define void @f(void* %p) {
  ret void
}
