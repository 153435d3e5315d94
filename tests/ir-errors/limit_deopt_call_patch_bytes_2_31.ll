; expect: 4:3: error: "statepoint-num-patch-bytes" of 2147483647 bytes is larger than the limit, 65536 bytes (patchmap writes them as nops)
declare void @h()
define void @f(i64 %a) gc "statepoint-example" {
  call void @h() #0 [ "deopt"(i64 %a) ]
  ret void
}
attributes #0 = { "statepoint-num-patch-bytes"="2147483647" }
