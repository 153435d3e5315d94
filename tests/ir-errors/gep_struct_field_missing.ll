; expect: 4:50: error: 'getelementptr' index 1: '{ i32 }' has no field 5
define ptr @f() {
  %a = alloca { i32 }
  %b = getelementptr { i32 }, ptr %a, i64 0, i32 5
  ret ptr %b
}
