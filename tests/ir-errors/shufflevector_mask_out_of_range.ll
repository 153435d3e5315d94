; expect: 3:60: error: 'shufflevector' mask lanes are constants below 4 or poison
define <2 x i32> @f(<2 x i32> %a) {
  %s = shufflevector <2 x i32> %a, <2 x i32> %a, <2 x i32> <i32 0, i32 4>
  ret <2 x i32> %s
}
