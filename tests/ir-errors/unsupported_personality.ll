; expect: 3:18: error: unsupported function attribute 'personality'
declare i32 @pers(...)
define void @f() personality ptr @pers {
  ret void
}
