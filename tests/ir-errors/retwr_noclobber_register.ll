; expect: 7:48: error: register 'rbx' is in the function's 'noclobber' list: llvm.experimental.retwr cannot set it
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.retwr(...)

define explicitcc void @f(i64 hwreg(metadata !0) %a) noclobber(metadata !1) {
  call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !2) %a)
  ret void
}

!0 = !{!"rcx"}
!1 = !{!"rax", !"rbx"}
!2 = !{!"rbx"}
