; expect: 4:50: error: register 'x17' cannot be in 'noclobber': x16 and x17 (IP0, IP1) are used by the patched call sequence itself
target triple = "aarch64-unknown-linux-gnu"

define explicitcc void @f() noclobber(metadata !{!"x17"}) {
  ret void
}
