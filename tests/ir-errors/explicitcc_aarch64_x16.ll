; expect: 4:31: error: register 'x16' cannot pass a parameter: x16 and x17 (IP0, IP1) are used by the patched call sequence itself
target triple = "aarch64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"x16"}
