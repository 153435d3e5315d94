; expect: 4:31: error: register 'rsp' cannot pass a parameter: the stack pointer cannot be handed over: the interrupted code relies on it and gets it back unchanged
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"rsp"}
