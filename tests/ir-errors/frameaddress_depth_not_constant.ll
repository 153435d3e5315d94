; expect: 5:43: error: llvm.frameaddress takes a constant depth from 0 to 1024
declare ptr @llvm.frameaddress.p0(i32)

define ptr @f(i32 %n) {
  %p = call ptr @llvm.frameaddress.p0(i32 %n)
  ret ptr %p
}
