; expect: 3:46: error: 'getelementptr' index 1 steps into non-aggregate type 'i32'
define ptr @f(ptr %p) {
  %q = getelementptr i32, ptr %p, i64 0, i64 1
  ret ptr %q
}
