; expect: 7:31: error: argument 0 is passed in 'rdx' but '@g' takes it in 'rcx'
target triple = "x86_64-unknown-linux-gnu"

declare explicitcc void @g(i64 hwreg(metadata !0))

define void @f() {
  call explicitcc void @g(i64 hwreg(metadata !1) 1)
  ret void
}

!0 = !{!"rcx"}
!1 = !{!"rdx"}
