; expect: 2:17: error: vector length 0 is not 1 to 64
define void @f(<0 x i32> %v) {
  ret void
}
