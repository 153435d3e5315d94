; expect: 9:16: error: use of %x does not dominate its use in 'add'
define i64 @f(i1 %c, i64 %a) {
entry:
  br i1 %c, label %then, label %join
then:
  %x = add i64 %a, 1
  br label %join
join:
  %y = add i64 %x, 2
  ret i64 %y
}
