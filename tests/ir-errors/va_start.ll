; expect: 2:14: error: unsupported intrinsic '@llvm.va_start.p0': variadic function definitions are not supported
declare void @llvm.va_start.p0(ptr)
