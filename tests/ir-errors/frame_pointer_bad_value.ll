; expect: 7:44: error: invalid value for 'frame-pointer' attribute: "always" (expected none, non-leaf, all or reserved)
; llc-19's verifier refuses it too: "invalid value for 'frame-pointer' attribute: always".
define void @f() #0 {
  ret void
}

attributes #0 = { nounwind "frame-pointer"="always" }
