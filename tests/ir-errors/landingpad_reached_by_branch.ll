; expect: 6:3: error: 'br' branches to landing pad block '%lp', which only unwind edges of 'invoke' may reach
declare i32 @__gxx_personality_v0(...)
declare void @g()
define void @f(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %call, label %lp
call:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  %p = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %p
}
