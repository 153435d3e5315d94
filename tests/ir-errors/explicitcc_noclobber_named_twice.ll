; expect: 9:23: error: register 'v0' is named twice (as 'd0') in 'noclobber'
target triple = "aarch64-unknown-linux-gnu"

; d0 and v0 are one register.
define explicitcc void @f() noclobber(metadata !0) {
  ret void
}

!0 = !{!"x19", !"d0", !"v0"}
