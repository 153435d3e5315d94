; expect: 5:17: error: call type 'i32 (ptr, i32)' does not match '@printf' of type 'i32 (ptr, ...)' (calls to varargs functions need the explicit function type)
declare i32 @printf(ptr, ...)
@s = constant [3 x i8] c"%d\00"
define void @f() {
  %r = call i32 @printf(ptr @s, i32 1)
  ret void
}
