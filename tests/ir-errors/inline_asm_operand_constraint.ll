; expect: 3:40: error: unsupported inline asm constraint 'r': only clobbers ('~{reg}'), register outputs ('={reg}') and register inputs ('{reg}') are supported
define void @f() {
  call void asm sideeffect "", "~{rax},r"()
  ret void
}
