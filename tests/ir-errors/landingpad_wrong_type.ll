; expect: 10:19: error: a landing pad's type is '{ ptr, i32 }' (or 'token'), not '{ ptr, i64 }'
declare i32 @__gxx_personality_v0(...)
declare void @g()
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  %p = landingpad { ptr, i64 } cleanup
  ret void
}
