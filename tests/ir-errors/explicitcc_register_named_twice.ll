; expect: 4:58: error: register 'rcx' is named for both %a and %b
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !0) %a, ptr hwreg(metadata !0) %b) {
  ret void
}

!0 = !{!"rcx"}
