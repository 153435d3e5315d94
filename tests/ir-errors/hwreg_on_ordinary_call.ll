; expect: 7:20: error: 'hwreg' on an argument of a call that is not 'call explicitcc' nor llvm.experimental.retwr
target triple = "x86_64-unknown-linux-gnu"

declare void @g(i64)

define void @f() {
  call void @g(i64 hwreg(metadata !0) 1)
  ret void
}

!0 = !{!"rax"}
