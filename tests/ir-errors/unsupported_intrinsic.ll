; expect: 2:14: error: unsupported intrinsic '@llvm.trap'
declare void @llvm.trap()
define void @f() {
  call void @llvm.trap()
  unreachable
}
