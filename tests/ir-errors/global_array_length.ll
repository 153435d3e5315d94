; expect: 2:23: error: array constant has 2 elements, expected 3 for '[3 x i32]'
@a = global [3 x i32] [i32 1, i32 2]
