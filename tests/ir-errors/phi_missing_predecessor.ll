; expect: 10:3: error: 'phi' has no entry for predecessor '%b'
define i64 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %p = phi i64 [ 1, %a ]
  ret i64 %p
}
