; expect: 4:52: error: llvm.is.fpclass takes a constant class mask
declare i1 @llvm.is.fpclass.f64(double, i32)
define i1 @f(double %x, i32 %m) {
  %r = call i1 @llvm.is.fpclass.f64(double %x, i32 %m)
  ret i1 %r
}
