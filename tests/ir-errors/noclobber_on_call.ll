; expect: 7:29: error: 'noclobber' belongs on an explicitcc function's definition or declaration, not on a call
target triple = "x86_64-unknown-linux-gnu"

declare explicitcc void @g()

define void @f() {
  call explicitcc void @g() noclobber(metadata !0)
  ret void
}

!0 = !{!"rax"}
