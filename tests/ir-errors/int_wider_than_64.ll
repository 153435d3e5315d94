; expect: 2:16: error: unsupported type 'i96'
define void @f(i96 %x) {
  ret void
}
