; expect: 4:46: error: metadata node '!7' is not defined
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f(i64 hwreg(metadata !7) %a) {
  ret void
}
