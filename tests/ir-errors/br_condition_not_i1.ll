; expect: 4:6: error: 'br' condition must be i1, found i64
define void @f(i64 %x) {
entry:
  br i64 %x, label %a, label %a
a:
  ret void
}
