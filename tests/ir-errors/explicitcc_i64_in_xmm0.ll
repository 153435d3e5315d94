; expect: 4:31: error: 'xmm0' is a floating-point register: it cannot hold a value of type 'i64'
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"xmm0"}
