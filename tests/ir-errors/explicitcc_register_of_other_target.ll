; expect: 4:31: error: 'rax' is not a register of AArch64 (it is an x86-64 register)
target triple = "aarch64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"rax"}
