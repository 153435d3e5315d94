; expect: 4:20: error: 'hwreg' applies to the parameters of a function and the arguments of a call only
target triple = "x86_64-unknown-linux-gnu"

declare explicitcc hwreg(metadata !0) void @f()

!0 = !{!"rax"}
