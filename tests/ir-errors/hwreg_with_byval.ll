; expect: 4:42: error: 'hwreg' cannot be combined with 'byval', 'sret', 'elementtype' or another 'hwreg'
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(ptr byval(i64) hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"rax"}
