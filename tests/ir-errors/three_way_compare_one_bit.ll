; expect: 2:12: error: unsupported intrinsic '@llvm.scmp.i1.i32'
declare i1 @llvm.scmp.i1.i32(i32, i32)
; llc-19 refuses it too: "result type must be at least 2 bits wide".
define i1 @f(i32 %a, i32 %b) {
  %r = call i1 @llvm.scmp.i1.i32(i32 %a, i32 %b)
  ret i1 %r
}
