; expect: 3:40: error: the inserted value has type 'i64' but 'double' is expected
define { i64, double } @f({ i64, double } %v) {
  %x = insertvalue { i64, double } %v, i64 1, 1
  ret { i64, double } %x
}
