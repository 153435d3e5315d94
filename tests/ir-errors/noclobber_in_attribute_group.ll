; expect: 8:28: error: 'noclobber' must be written on the function or parameter itself, not in an attribute group
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f() #0 {
  ret void
}

attributes #0 = { nounwind noclobber(metadata !0) }

!0 = !{!"rax"}
