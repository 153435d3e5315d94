; expect: 3:28: error: 'select' of '<4 x i32>' by a '<2 x i1>' condition: the lane counts differ
define <4 x i32> @f(<2 x i1> %c, <4 x i32> %a) {
  %s = select <2 x i1> %c, <4 x i32> %a, <4 x i32> %a
  ret <4 x i32> %s
}
