; expect: 7:3: error: llvm.experimental.retwr must come directly before the 'ret void' of an explicitcc function
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.retwr(...)

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !1) %a)
  %b = add i64 %a, 1
  ret void
}

!0 = !{!"rax"}
!1 = !{!"rbx"}
