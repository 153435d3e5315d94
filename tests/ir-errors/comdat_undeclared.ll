; expect: 2:13: error: '@f' is in comdat '$g', which is not declared
define void @f() comdat($g) {
  ret void
}
