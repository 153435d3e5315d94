; expect: 11:11: error: use of %r does not dominate its use in 'ret'
declare i32 @__gxx_personality_v0(...)
declare i32 @h()
define i32 @f() personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @h() to label %ok unwind label %lp
ok:
  ret i32 %r
lp:
  %p = landingpad { ptr, i32 } cleanup
  ret i32 %r
}
