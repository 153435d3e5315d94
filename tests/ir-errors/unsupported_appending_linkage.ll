; expect: 2:1: error: unsupported 'appending' linkage on '@list' (only @llvm.used and @llvm.compiler.used are 'appending')
@list = appending global [1 x i32] [i32 1]
