; expect: 4:31: error: register 'x18' cannot pass a parameter: x18 is the platform register, reserved
target triple = "aarch64-unknown-linux-gnu"

define explicitcc void @f(ptr hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"x18"}
