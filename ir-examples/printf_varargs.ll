; A variadic call: printf with i32, i64, unsigned, hex, char and string arguments (integer and pointer
; variadic arguments only), interleaved with putchar on the same stdout, and printf's return value
; (characters written) used as data. Exit status: the characters written by the last printf (29).
source_filename = "printf_varargs.ll"

@fmt1 = private constant [30 x i8] c"%d %ld %u %x %c [%s] %lld %%\0A\00"
@fmt2 = private constant [16 x i8] c"%5d|%-5d|%05d|\0A\00"
@fmt3 = private constant [22 x i8] c"loop %d: %ld squared\0A\00"
@word = internal constant [6 x i8] c"words\00"
@fmt4 = internal constant [23 x i8] c"total %d chars, %s %p\0A\00"

declare i32 @printf(ptr, ...)
declare i32 @putchar(i32)

define i32 @main() {
entry:
  %n1 = call i32 (ptr, ...) @printf(ptr @fmt1, i32 -42, i64 -9000000000, i32 -1, i32 48879, i32 90, ptr @word, i64 123456789012)
  call i32 @putchar(i32 62)
  call i32 @putchar(i32 10)
  %n2 = call i32 (ptr, ...) @printf(ptr @fmt2, i32 %n1, i32 7, i32 -3)
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %i64 = sext i32 %i to i64
  %sq = mul i64 %i64, %i64
  %w = call i32 (ptr, ...) @printf(ptr @fmt3, i32 %i, i64 %sq)
  %acc1 = add i32 %acc, %w
  %i1 = add i32 %i, 1
  %more = icmp sle i32 %i1, 4
  br i1 %more, label %loop, label %done
done:
  %all0 = add i32 %n1, %n2
  %all = add i32 %all0, %acc1
  %n4 = call i32 (ptr, ...) @printf(ptr @fmt4, i32 %all, ptr @word, ptr null)
  ret i32 %n4
}
