; expect: 7:3: error: 'phi' after a non-phi instruction in block '%join'; phis must come first
define i64 @f() {
entry:
  br label %join
join:
  %x = add i64 1, 2
  %p = phi i64 [ 1, %entry ]
  ret i64 %p
}
