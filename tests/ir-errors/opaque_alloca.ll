; expect: 4:3: error: 'alloca' of unsized type '%struct.hidden'
%struct.hidden = type opaque
define void @f() {
  %a = alloca %struct.hidden
  ret void
}
