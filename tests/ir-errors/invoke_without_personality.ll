; expect: 6:3: error: '@f' uses exception handling but names no personality function ('personality ptr @__gxx_personality_v0' for C++)
declare i32 @__gxx_personality_v0(...)
declare void @g()
define void @f() {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  %p = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %p
}
