; expect: 8:3: error: '%v' defined with type 'i32' but expected 'i64'
define i64 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  ret i64 %v
b:
  %v = add i32 1, 2
  ret i64 0
}
