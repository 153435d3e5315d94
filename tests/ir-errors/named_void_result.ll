; expect: 4:3: error: '%x': instructions returning void cannot have a name
declare void @g()
define void @f() {
  %x = call void @g()
  ret void
}
