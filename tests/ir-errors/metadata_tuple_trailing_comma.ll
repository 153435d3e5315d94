; expect: 4:23: error: expected a metadata operand after ',', found '}'
target triple = "x86_64-unknown-linux-gnu"

!0 = !{!"rax", !"rbx",}
