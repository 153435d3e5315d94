; expect: 2:16: error: unsupported vector type '<2 x i64>'
define void @f(<2 x i64> %v) {
  ret void
}
