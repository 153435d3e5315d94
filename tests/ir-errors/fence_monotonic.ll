; expect: 3:3: error: 'fence' cannot have 'monotonic' ordering
define void @f() {
  fence monotonic
  ret void
}
