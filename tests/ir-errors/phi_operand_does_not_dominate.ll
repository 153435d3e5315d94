; expect: 9:30: error: use of %x does not dominate its use in 'phi'
define i64 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %join
a:
  %x = add i64 1, 2
  br label %join
join:
  %p = phi i64 [ %x, %a ], [ %x, %entry ]
  ret i64 %p
}
