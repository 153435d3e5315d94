; expect: 3:15: error: use of undefined type '%struct.missing'
define void @f() {
  %a = alloca %struct.missing
  ret void
}
