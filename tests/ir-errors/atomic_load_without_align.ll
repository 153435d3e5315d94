; expect: 3:3: error: atomic 'load' must have an explicit alignment
define i32 @f(ptr %p) {
  %v = load atomic i32, ptr %p seq_cst
  ret i32 %v
}
