; expect: 3:44: error: unsupported inline asm with more than one output
define i64 @f() {
  %r = call i64 asm sideeffect "", "={rax},={rbx}"()
  ret i64 %r
}
