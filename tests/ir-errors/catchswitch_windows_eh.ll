; expect: 10:9: error: unsupported instruction 'catchswitch': it is Windows exception handling (funclets); these targets unwind with 'invoke', 'landingpad' and 'resume'
declare i32 @__gxx_personality_v0(...)
declare void @g()
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %dispatch
ok:
  ret void
dispatch:
  %cs = catchswitch within none [label %handler] unwind to caller
handler:
  ret void
}
