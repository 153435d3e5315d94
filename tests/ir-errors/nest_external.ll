; expect: 2:23: error: 'nest' parameters are supported on declarations and on internal and private functions only (a definition's is compiled as an ordinary parameter, which a caller in another object would not know)
define i32 @inner(ptr nest %chain, i32 %x) {
  %v = load i32, ptr %chain
  %r = add i32 %v, %x
  ret i32 %r
}
define i32 @main() {
  %frame = alloca i32
  store i32 40, ptr %frame
  %r = call i32 @inner(ptr nest %frame, i32 2)
  ret i32 %r
}
