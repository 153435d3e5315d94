; expect: 3:3: error: 'alloca' alignment 2147483648 is larger than the limit, 16777216
define i64 @main() {
  %p = alloca i64, align 2147483648
  store i64 1, ptr %p
  %v = load i64, ptr %p
  ret i64 %v
}
