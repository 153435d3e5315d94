; expect: 6:3: error: the unwind destination '%ok2' of 'invoke' does not start with a 'landingpad'
declare i32 @__gxx_personality_v0(...)
declare void @g()
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %ok2
ok:
  ret void
ok2:
  ret void
}
