; expect: 2:1: error: comdat '$f': ELF supports the 'any' and 'nodeduplicate' kinds, not 'largest'
$f = comdat largest
define void @f() comdat {
  ret void
}
