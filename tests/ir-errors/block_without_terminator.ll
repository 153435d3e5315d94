; expect: 4:1: error: expected an instruction (block '%0' has no terminator), found '}'
define i64 @f(i64 %a) {
  %s = add i64 %a, 1
}
