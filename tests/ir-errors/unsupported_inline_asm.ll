; expect: 3:28: error: unsupported inline asm: only an empty template with clobbers ("", "~{reg},...") is supported
define void @f() {
  call void asm sideeffect "nop", ""()
  ret void
}
