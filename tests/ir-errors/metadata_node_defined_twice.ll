; expect: 5:1: error: metadata node '!0' is defined twice
target triple = "x86_64-unknown-linux-gnu"

!0 = !{!"rax"}
!0 = !{!"rbx"}
