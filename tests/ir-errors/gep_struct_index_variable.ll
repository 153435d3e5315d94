; expect: 4:48: error: 'getelementptr' index 1 into struct type '%pair' must be a constant field number
%pair = type { i32, i64 }
define ptr @f(ptr %p, i32 %i) {
  %q = getelementptr %pair, ptr %p, i64 0, i32 %i
  ret ptr %q
}
