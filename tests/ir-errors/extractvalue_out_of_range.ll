; expect: 3:38: error: 'extractvalue' index 2 is out of range for type '{ i64, i64 }'
define i64 @f({ i64, i64 } %v) {
  %x = extractvalue { i64, i64 } %v, 2
  ret i64 %x
}
