; expect: 3:40: error: 'getelementptr' vector index of 4 lanes in one of 2 lanes
define <2 x ptr> @f(<2 x ptr> %p, <4 x i64> %i) {
  %q = getelementptr i8, <2 x ptr> %p, <4 x i64> %i
  ret <2 x ptr> %q
}
