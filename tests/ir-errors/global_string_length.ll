; expect: 2:24: error: string constant has 5 bytes, expected 4 for '[4 x i8]'
@s = constant [4 x i8] c"hello"
