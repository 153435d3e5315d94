; `freeze` of a whole `{ i64, i1 }`, as clang -O2 leaves one when it speculates an overflow check
; (issue 27, item 5): the frozen members are the operand's.
@.fmt = private unnamed_addr constant [12 x i8] c"%llu %d %d\0A\00"

declare i32 @printf(ptr, ...)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)

define i64 @mul_or_zero(i64 %a, i64 %b) noinline {
  %m = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %a, i64 %b)
  %f = freeze { i64, i1 } %m
  %v = extractvalue { i64, i1 } %f, 0
  %o = extractvalue { i64, i1 } %f, 1
  %r = select i1 %o, i64 0, i64 %v
  ret i64 %r
}

define i32 @add_flag(i32 %a, i32 %b) noinline {
  %s = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %b)
  %f = freeze { i32, i1 } %s
  %o = extractvalue { i32, i1 } %f, 1
  %z = zext i1 %o to i32
  ret i32 %z
}

define { i64, i1 } @frozen_undef() noinline {
  %f = freeze { i64, i1 } undef
  %g = insertvalue { i64, i1 } %f, i64 7, 0
  %h = insertvalue { i64, i1 } %g, i1 true, 1
  ret { i64, i1 } %h
}

define i32 @main() {
  %a = call i64 @mul_or_zero(i64 4294967296, i64 4294967296)
  %b = call i64 @mul_or_zero(i64 123456789, i64 1000)
  %c = call i32 @add_flag(i32 2147483647, i32 1)
  %d = call i32 @add_flag(i32 -5, i32 3)
  %p1 = call i32 (ptr, ...) @printf(ptr @.fmt, i64 %a, i32 %c, i32 %d)
  %u = call { i64, i1 } @frozen_undef()
  %u0 = extractvalue { i64, i1 } %u, 0
  %u1 = extractvalue { i64, i1 } %u, 1
  %u1z = zext i1 %u1 to i32
  %p2 = call i32 (ptr, ...) @printf(ptr @.fmt, i64 %b, i32 %u1z, i32 0)
  %p3 = call i32 (ptr, ...) @printf(ptr @.fmt, i64 %u0, i32 %u1z, i32 1)
  ret i32 0
}
