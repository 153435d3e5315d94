; expect: 3:10: error: unsupported 'switch' on 'i128'
define void @f(i128 %x) {
  switch i128 %x, label %done [ i128 1, label %done ]
done:
  ret void
}
