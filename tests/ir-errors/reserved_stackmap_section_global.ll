; expect: 2:1: error: section '.llvm_stackmaps' of '@g' is reserved for the stack map section; choose another name
@g = global i64 1, section ".llvm_stackmaps"
define i64 @f() {
  %v = load i64, ptr @g
  ret i64 %v
}
