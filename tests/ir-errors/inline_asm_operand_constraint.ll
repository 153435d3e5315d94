; expect: 3:40: error: unsupported inline asm constraint 'r': only clobbers ('~{reg}') are supported
define void @f() {
  call void asm sideeffect "", "~{rax},r"()
  ret void
}
