; expect: 7:48: error: register 'rbp' cannot be set by llvm.experimental.retwr: the frame pointer always comes back unchanged
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.retwr(...)

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !1) %a)
  ret void
}

!0 = !{!"rax"}
!1 = !{!"rbp"}
