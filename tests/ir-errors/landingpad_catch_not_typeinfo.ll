; expect: 10:42: error: a 'landingpad' clause names type information: a global variable, 'null', or (in a 'filter') an array of them
declare i32 @__gxx_personality_v0(...)
declare void @g()
define void @f(ptr %t) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  %p = landingpad { ptr, i32 } catch ptr %t
  resume { ptr, i32 } %p
}
