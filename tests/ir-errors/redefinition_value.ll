; expect: 4:3: error: redefinition of '%x'
define i64 @f(i64 %a) {
  %x = add i64 %a, 1
  %x = add i64 %a, 2
  ret i64 %x
}
