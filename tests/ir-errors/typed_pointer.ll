; expect: 2:16: error: unsupported typed pointer 'i32*' (use 'ptr')
define void @f(i32* %p) {
  ret void
}
