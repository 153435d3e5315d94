; expect: 4:23: error: explicitcc function '@f' must return void (it returns values in registers, through llvm.experimental.retwr)
target triple = "x86_64-unknown-linux-gnu"

define explicitcc i64 @f(i64 hwreg(metadata !0) %a) {
  ret i64 %a
}

!0 = !{!"rax"}
