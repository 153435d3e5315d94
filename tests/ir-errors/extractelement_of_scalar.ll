; expect: 3:23: error: 'extractelement' requires a vector operand, found 'i32'
define i32 @f(i32 %a) {
  %e = extractelement i32 %a, i32 0
  ret i32 %e
}
