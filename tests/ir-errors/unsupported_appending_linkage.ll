; expect: 2:1: error: unsupported 'appending' linkage on '@list' (only @llvm.used, @llvm.compiler.used, @llvm.global_ctors and @llvm.global_dtors are 'appending')
@list = appending global [1 x i32] [i32 1]
