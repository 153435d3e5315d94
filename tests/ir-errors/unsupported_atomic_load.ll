; expect: 3:13: error: unsupported atomic load
define i64 @f(ptr %p) {
  %v = load atomic i64, ptr %p seq_cst, align 8
  ret i64 %v
}
