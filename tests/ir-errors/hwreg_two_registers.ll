; expect: 4:31: error: 'hwreg' needs a metadata tuple of one register name, such as !{!"rax"}
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"rax", !"rbx"}
