; expect: 2:1: error: unsupported 'appending' linkage on '@list' (only @llvm.used, @llvm.compiler.used, @llvm.global_ctors, @llvm.global_dtors and @llvm.global.annotations are 'appending')
@list = appending global [1 x i32] [i32 1]
