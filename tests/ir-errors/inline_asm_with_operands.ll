; expect: 3:41: error: unsupported inline asm: a clobber-only asm takes no operands
define void @f(i64 %x) {
  call void asm sideeffect "", "~{rax}"(i64 %x)
  ret void
}
