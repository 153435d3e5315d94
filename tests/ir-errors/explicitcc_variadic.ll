; expect: 4:25: error: explicitcc function '@f' cannot be variadic
target triple = "x86_64-unknown-linux-gnu"

declare explicitcc void @f(i64 hwreg(metadata !0), ...)

!0 = !{!"rax"}
