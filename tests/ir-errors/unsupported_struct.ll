; expect: 3:15: error: unsupported struct type '{ i64, ptr }'
define void @f() {
  %a = alloca { i64, ptr }
  ret void
}
