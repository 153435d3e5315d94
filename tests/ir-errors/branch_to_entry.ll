; expect: 4:3: error: 'br' branches to the entry block '%entry', which must have no predecessors
define void @f() {
entry:
  br label %entry
}
