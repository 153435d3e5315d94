; expect: 3:13: error: unsupported inline asm
define void @f() {
  call void asm sideeffect "nop", ""()
  ret void
}
