; expect: 4:40: error: parameter %a has type '{ i64, i64 }': only an integer, pointer, float or double fits a register
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f({ i64, i64 } hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"rax"}
