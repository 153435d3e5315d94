; expect: 4:34: error: 'rax' is a general-purpose register: it cannot hold a value of type 'double'
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(double hwreg(metadata !0) %a) {
  ret void
}

!0 = !{!"rax"}
