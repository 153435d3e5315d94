; expect: 2:13: error: intrinsic '@llvm.ctlz.i32' must be declared as 'i32 (i32, i1)', found 'i32 (i32)'
declare i32 @llvm.ctlz.i32(i32)
