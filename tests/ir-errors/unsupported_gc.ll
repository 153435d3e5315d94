; expect: 2:18: error: unsupported function attribute 'gc'
define void @f() gc "statepoint-example" {
  ret void
}
