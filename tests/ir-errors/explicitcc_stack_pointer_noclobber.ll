; expect: 8:15: error: register 'sp' cannot be in 'noclobber': the stack pointer cannot be handed over: the interrupted code relies on it and gets it back unchanged
target triple = "aarch64-unknown-linux-gnu"

define explicitcc void @f() noclobber(metadata !0) {
  ret void
}

!0 = !{!"x0", !"sp"}
