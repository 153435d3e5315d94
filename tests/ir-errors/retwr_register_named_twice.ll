; expect: 7:75: error: register 'r8' is named twice in llvm.experimental.retwr
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.retwr(...)

define explicitcc void @f(i64 hwreg(metadata !0) %a, i64 hwreg(metadata !1) %b) {
  call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !2) %a, i64 hwreg(metadata !2) %b)
  ret void
}

!0 = !{!"rcx"}
!1 = !{!"rdx"}
!2 = !{!"r8"}
