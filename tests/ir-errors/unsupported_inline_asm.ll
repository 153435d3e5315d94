; expect: 3:28: error: unsupported inline asm: only a template that is empty or only 'nop's, with clobbers ("nop", "~{reg},..."), is supported
define void @f() {
  call void asm sideeffect "nop; hlt", ""()
  ret void
}
