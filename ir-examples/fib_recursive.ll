; Recursion: naive Fibonacci, Ackermann, i64 factorial, and a recursive decimal printer.
; Exit status: fib(11) = 89.
source_filename = "fib_recursive.ll"

declare i32 @putchar(i32)

; Prints an unsigned number, most significant digit first, by recursing on v / 10.
define internal void @print_u64(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @print_u64(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

define internal i32 @fib(i32 %n) {
entry:
  %small = icmp slt i32 %n, 2
  br i1 %small, label %base, label %rec
base:
  ret i32 %n
rec:
  %n1 = sub nsw i32 %n, 1
  %n2 = sub nsw i32 %n, 2
  %a = call i32 @fib(i32 %n1)
  %b = call i32 @fib(i32 %n2)
  %s = add nsw i32 %a, %b
  ret i32 %s
}

define internal i64 @ackermann(i64 %m, i64 %n) {
entry:
  %m0 = icmp eq i64 %m, 0
  br i1 %m0, label %m_zero, label %m_pos
m_zero:
  %r0 = add i64 %n, 1
  ret i64 %r0
m_pos:
  %mm = sub i64 %m, 1
  %n0 = icmp eq i64 %n, 0
  br i1 %n0, label %n_zero, label %n_pos
n_zero:
  %r1 = call i64 @ackermann(i64 %mm, i64 1)
  ret i64 %r1
n_pos:
  %nn = sub i64 %n, 1
  %inner = call i64 @ackermann(i64 %m, i64 %nn)
  %r2 = call i64 @ackermann(i64 %mm, i64 %inner)
  ret i64 %r2
}

define private i64 @factorial(i64 %n) {
entry:
  %done = icmp ule i64 %n, 1
  br i1 %done, label %one, label %rec
one:
  ret i64 1
rec:
  %n1 = sub nuw i64 %n, 1
  %f = call i64 @factorial(i64 %n1)
  %p = mul nuw i64 %f, %n
  ret i64 %p
}

define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %f = call i32 @fib(i32 %i)
  %f64 = zext i32 %f to i64
  call void @print_u64(i64 %f64)
  call i32 @putchar(i32 32)
  %next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %next, 20
  br i1 %more, label %loop, label %after
after:
  call i32 @putchar(i32 10)
  %a23 = call i64 @ackermann(i64 2, i64 3)
  call void @print_u64(i64 %a23)
  call i32 @putchar(i32 32)
  %a33 = call i64 @ackermann(i64 3, i64 3)
  call void @print_u64(i64 %a33)
  call i32 @putchar(i32 10)
  %f20 = call i64 @factorial(i64 20)
  call void @print_u64(i64 %f20)
  call i32 @putchar(i32 10)
  %status = call i32 @fib(i32 11)
  ret i32 %status
}
