; expect: 4:20: error: 'hwreg' on parameter %a of '@f', which is not an explicitcc function
target triple = "x86_64-unknown-linux-gnu"

define void @f(i64 hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"rax"}
