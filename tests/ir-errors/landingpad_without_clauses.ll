; expect: 10:8: error: a landing pad needs 'cleanup' or a 'catch' or 'filter' clause
declare i32 @__gxx_personality_v0(...)
declare void @g()
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  %p = landingpad { ptr, i32 }
  ret void
}
