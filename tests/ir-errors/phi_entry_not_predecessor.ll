; expect: 8:3: error: 'phi' has an entry for '%other', which is not a predecessor
define i64 @f() {
entry:
  br label %join
other:
  ret i64 0
join:
  %p = phi i64 [ 1, %entry ], [ 2, %other ]
  ret i64 %p
}
