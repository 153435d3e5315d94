; expect: 4:11: error: unsupported constant expression 'getelementptr'
@g = global [2 x i64] zeroinitializer
define ptr @f() {
  ret ptr getelementptr (i64, ptr @g, i64 1)
}
