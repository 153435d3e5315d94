; A relative lookup table as clang -O2 makes one from a switch returning strings (issue 27,
; item 5): each entry is `trunc (sub (ptrtoint @str, ptrtoint @table))`, read back with
; llvm.load.relative; objects hold R_X86_64_PC32 / R_AARCH64_PREL32 data, the JIT writes the
; distances once addresses are known. The i64 entry refers to a function.
@.str.0 = private unnamed_addr constant [4 x i8] c"Mon\00"
@.str.1 = private unnamed_addr constant [4 x i8] c"Tue\00"
@.str.2 = private unnamed_addr constant [4 x i8] c"Wed\00"
@.fmt = private unnamed_addr constant [7 x i8] c"%d %s\0A\00"
@.ret = private unnamed_addr constant [7 x i8] c"fn %d\0A\00"
@table = private unnamed_addr constant [3 x i32] [
  i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.0 to i64), i64 ptrtoint (ptr @table to i64)) to i32),
  i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.1 to i64), i64 ptrtoint (ptr @table to i64)) to i32),
  i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.2 to i64), i64 ptrtoint (ptr @table to i64)) to i32)]
@to_function = internal constant { i64, i32 } { i64 sub (i64 ptrtoint (ptr @seven to i64), i64 ptrtoint (ptr @to_function to i64)), i32 0 }

declare i32 @printf(ptr, ...)
declare ptr @llvm.load.relative.i32(ptr, i32)

define internal i32 @seven() {
  ret i32 7
}

define internal ptr @day(i32 %d) noinline {
  %offset = shl i32 %d, 2
  %s = call ptr @llvm.load.relative.i32(ptr @table, i32 %offset)
  ret ptr %s
}

define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = call ptr @day(i32 %i)
  %p = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %i, ptr %s)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, 3
  br i1 %more, label %loop, label %done
done:
  %distance = load i64, ptr @to_function
  %base = ptrtoint ptr @to_function to i64
  %address = add i64 %base, %distance
  %f = inttoptr i64 %address to ptr
  %v = call i32 %f()
  %q = call i32 (ptr, ...) @printf(ptr @.ret, i32 %v)
  ret i32 0
}
