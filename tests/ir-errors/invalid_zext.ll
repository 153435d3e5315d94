; expect: 3:3: error: invalid cast 'zext' from 'i64' to 'i32'
define i32 @f(i64 %a) {
  %t = zext i64 %a to i32
  ret i32 %t
}
