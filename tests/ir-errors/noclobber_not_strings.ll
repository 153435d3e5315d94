; expect: 4:29: error: 'noclobber' needs a metadata tuple of register names, such as !{!"rax", !"rbx"}
target triple = "x86_64-unknown-linux-gnu"

define explicitcc void @f() noclobber(metadata !0) {
  ret void
}

!0 = !{i32 1, !"rax"}
