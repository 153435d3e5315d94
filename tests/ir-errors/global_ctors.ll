; expect: 3:1: error: unsupported static constructors and destructors (only @llvm.used and @llvm.compiler.used are 'appending')
declare void @init()
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
