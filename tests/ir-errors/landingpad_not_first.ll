; expect: 6:3: error: the unwind destination '%lp' of 'invoke' does not start with a 'landingpad'
declare i32 @__gxx_personality_v0(...)
declare void @g()
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  call void @g()
  %p = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %p
}
