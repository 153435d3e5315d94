; expect: 7:3: error: '@g' is an explicitcc function: call it with 'call explicitcc'
target triple = "x86_64-unknown-linux-gnu"

declare explicitcc void @g(i64 hwreg(metadata !0))

define void @f() {
  call void @g(i64 1)
  ret void
}

!0 = !{!"rcx"}
