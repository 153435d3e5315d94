; expect: 3:1: error: static constructor or destructor '@init' must be a 'void ()' function
declare i32 @init(i32)
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
