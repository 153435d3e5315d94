; expect: 3:41: error: inline asm takes one argument per input constraint ('{reg}')
define void @f(i64 %x) {
  call void asm sideeffect "", "~{rax}"(i64 %x)
  ret void
}
