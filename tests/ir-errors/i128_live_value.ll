; expect: 3:76: error: unsupported i128 live value: only i128 constants are recorded (their low 64 bits, as llc-19 records them; llc-19 cannot select an i128 value there)
define void @f(i64 %x) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i128 %x)
  ret void
}
declare void @llvm.experimental.stackmap(i64, i32, ...)
