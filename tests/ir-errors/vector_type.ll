; expect: 2:8: error: unsupported vector type '<2 x float>'
define <2 x float> @f(<2 x float> %v) {
  ret <2 x float> %v
}
