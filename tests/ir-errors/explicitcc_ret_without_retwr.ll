; expect: 12:3: error: this 'ret void' of '@guard' sets no register, but its other returns do (with llvm.experimental.retwr): every return of an explicitcc function sets the same registers
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.retwr(...)

define explicitcc void @guard(i64 hwreg(metadata !0) %v, i1 hwreg(metadata !1) %c) {
  br i1 %c, label %fast, label %slow
fast:
  call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !2) %v)
  ret void
slow:
  ret void
}

!0 = !{!"rax"}
!1 = !{!"rcx"}
!2 = !{!"rdx"}
