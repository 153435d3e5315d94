; expect: 3:3: error: 'load' of type '[2 x i32]' is not supported; loads must have a scalar type
define void @f(ptr %p) {
  %v = load [2 x i32], ptr %p
  ret void
}
