; expect: 5:37: error: register 'fp' cannot pass a parameter: the compiled function keeps its own frame pointer there (the caller's comes back unchanged: read it through llvm.frameaddress)
target triple = "aarch64-unknown-linux-gnu"

; The compiled function keeps its own frame in x29: the caller's is read through llvm.frameaddress.
define explicitcc void @handler(i64 hwreg(metadata !0) %fp) {
  ret void
}

!0 = !{!"fp"}
