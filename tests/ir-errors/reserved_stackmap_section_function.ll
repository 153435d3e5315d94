; expect: 2:12: error: section '.llvm_stackmaps' of '@f' is reserved for the stack map section; choose another name
define i64 @f() section ".llvm_stackmaps" {
  ret i64 0
}
