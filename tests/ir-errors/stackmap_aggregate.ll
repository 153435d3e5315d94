; expect: 4:84: error: operand of aggregate type '{ i64, i64 }': a record locates scalars (pass the fields, from 'extractvalue')
declare void @llvm.experimental.stackmap(i64, i32, ...)
define void @f({ i64, i64 } %v) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, { i64, i64 } %v)
  ret void
}
