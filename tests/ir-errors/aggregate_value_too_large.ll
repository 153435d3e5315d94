; expect: 3:3: error: 'load': unsupported aggregate value of type '[100 x i32]': it holds 100 scalars, more than 64 (keep large aggregates in memory)
define void @f(ptr %p) {
  %v = load [100 x i32], ptr %p
  ret void
}
