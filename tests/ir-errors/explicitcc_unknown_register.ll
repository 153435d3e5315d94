; expect: 4:31: error: 'r16' is not a register of x86-64
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"r16"}
