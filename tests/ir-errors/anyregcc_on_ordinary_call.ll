; expect: 4:3: error: 'anyregcc' is only allowed on calls of llvm.experimental.patchpoint
declare i64 @g(i64)
define i64 @f(i64 %a) {
  %r = call anyregcc i64 @g(i64 %a)
  ret i64 %r
}
