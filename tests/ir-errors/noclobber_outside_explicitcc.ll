; expect: 4:18: error: 'noclobber' on '@f', which is not an explicitcc function
target triple = "x86_64-unknown-linux-gnu"

define void @f() noclobber(metadata !0) {
  ret void
}

!0 = !{!"rax"}
