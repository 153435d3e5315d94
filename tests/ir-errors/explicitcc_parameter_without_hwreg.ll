; expect: 4:24: error: parameter %b of explicitcc function '@f' has no 'hwreg(metadata !N)': every argument arrives in the register it names
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !0) %a, i64 %b) {
  ret void
}

!0 = !{!"rax"}
