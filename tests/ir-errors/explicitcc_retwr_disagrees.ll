; expect: 13:3: error: this llvm.experimental.retwr sets other registers or types than the first one of '@guard': every return of an explicitcc function sets the same registers, in the same order
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.retwr(...)

; One signature returns one list of registers: both returns must set the same ones.
define explicitcc void @guard(i64 hwreg(metadata !0) %v, i1 hwreg(metadata !1) %c) {
  br i1 %c, label %fast, label %slow
fast:
  call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !2) %v)
  ret void
slow:
  call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !0) %v)
  ret void
}

!0 = !{!"rax"}
!1 = !{!"rcx"}
!2 = !{!"rdx"}
