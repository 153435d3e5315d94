; expect: 3:12: error: '@f' has an 'sret' parameter, so it must return void
%pair = type { i64, i64 }
define i64 @f(ptr sret(%pair) %out) {
  ret i64 0
}
