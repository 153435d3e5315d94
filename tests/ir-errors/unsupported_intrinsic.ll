; expect: 2:13: error: unsupported intrinsic '@llvm.readcyclecounter'
declare i64 @llvm.readcyclecounter()
define i64 @f() {
  %t = call i64 @llvm.readcyclecounter()
  ret i64 %t
}
