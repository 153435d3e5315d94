; expect: 4:14: error: the address of 'indirectbr' has type 'i64' but a pointer is expected
define void @f(i64 %where) {
entry:
  indirectbr i64 %where, [label %a]
a:
  ret void
}
