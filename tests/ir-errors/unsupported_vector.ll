; expect: 3:3: error: 'load': unsupported vector type '<4 x i12>' in memory: its lanes are not whole bytes
define void @f(ptr %p) {
  %v = load <4 x i12>, ptr %p
  ret void
}
