; expect: 7:48: error: argument 0 (i64 %a) of llvm.experimental.retwr has no 'hwreg(metadata !N)'
target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.retwr(...)

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  call void (...) @llvm.experimental.retwr(i64 %a)
  ret void
}

!0 = !{!"rcx"}
