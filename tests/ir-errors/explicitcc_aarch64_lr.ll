; expect: 4:31: error: register 'lr' cannot pass a parameter: lr (x30) holds the return address of the patched call, not a value of the interrupted code
target triple = "aarch64-unknown-linux-gnu"

define explicitcc void @f(ptr hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"lr"}
