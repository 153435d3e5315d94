; expect: 2:13: error: unsupported intrinsic '@llvm.sqrt.i32'
declare i32 @llvm.sqrt.i32(i32)
