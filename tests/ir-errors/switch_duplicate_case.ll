; expect: 4:3: error: duplicate case value 1 in 'switch'
define void @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 1, label %a
    i32 1, label %d
  ]
a:
  ret void
d:
  ret void
}
