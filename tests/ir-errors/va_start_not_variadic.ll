; expect: 4:3: error: 'llvm.va_start' in '@f', which is not variadic
declare void @llvm.va_start.p0(ptr)
define void @f(ptr %ap) {
  call void @llvm.va_start.p0(ptr %ap)
  ret void
}
