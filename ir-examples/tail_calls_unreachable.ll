; Tail calls: a `tail`-marked accumulator sum, mutually recursive even/odd through `musttail` (deep
; enough to matter without being a stack hazard if a compiler ignored `tail`), a musttail call through a
; function pointer, and `unreachable` in branches that are never taken (an impossible switch default and
; a guard after an exhaustive check). Exit status: (1 + ... + 100000) mod 97 + is_even(10001) = 21 + 0.
source_filename = "tail_calls_unreachable.ll"

declare i32 @putchar(i32)

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

define internal void @out(i64 %v) {
  call void @print_u64(i64 %v)
  call i32 @putchar(i32 32)
  ret void
}

define internal i64 @sum_acc(i64 %n, i64 %acc) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %done, label %step
done:
  ret i64 %acc
step:
  %acc1 = add i64 %acc, %n
  %n1 = sub i64 %n, 1
  %r = tail call i64 @sum_acc(i64 %n1, i64 %acc1)
  ret i64 %r
}

define internal i64 @is_even(i64 %n, i64 %steps) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %yes, label %step
yes:
  ret i64 1
step:
  %n1 = sub i64 %n, 1
  %s1 = add i64 %steps, 1
  %r = musttail call i64 @is_odd(i64 %n1, i64 %s1)
  ret i64 %r
}

define internal i64 @is_odd(i64 %n, i64 %steps) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %no, label %step
no:
  ret i64 0
step:
  %n1 = sub i64 %n, 1
  %s1 = add i64 %steps, 1
  %r = musttail call i64 @is_even(i64 %n1, i64 %s1)
  ret i64 %r
}

; Forwards to is_odd (which != 0) or is_even through a pointer, as a musttail indirect call; musttail
; needs the caller's and callee's parameter lists to match.
define internal i64 @dispatch(i64 %n, i64 %which) {
  %odd = icmp ne i64 %which, 0
  %p = select i1 %odd, ptr @is_odd, ptr @is_even
  %r = musttail call i64 %p(i64 %n, i64 0)
  ret i64 %r
}

; x mod 4 into a name length; the default is impossible because x & 3 < 4.
define internal i32 @name_len(i32 %x) {
entry:
  %k = and i32 %x, 3
  switch i32 %k, label %impossible [
    i32 0, label %zero
    i32 1, label %one
    i32 2, label %two
    i32 3, label %three
  ]
zero:
  ret i32 4
one:
  ret i32 3
two:
  ret i32 3
three:
  ret i32 5
impossible:
  unreachable
}

define i32 @main() {
entry:
  %s = call i64 @sum_acc(i64 100000, i64 0)
  call void @out(i64 %s)
  %e1 = call i64 @is_even(i64 10000, i64 0)
  %e2 = call i64 @is_even(i64 10001, i64 0)
  %o1 = call i64 @is_odd(i64 777, i64 0)
  call void @out(i64 %e1)
  call void @out(i64 %e2)
  call void @out(i64 %o1)
  %d = call i64 @dispatch(i64 12345, i64 1)
  call void @out(i64 %d)
  call i32 @putchar(i32 10)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %l = call i32 @name_len(i32 %i)
  %acc1 = add i32 %acc, %l
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, 10
  br i1 %more, label %loop, label %check
check:
  %acc64 = zext i32 %acc1 to i64
  call void @out(i64 %acc64)
  call i32 @putchar(i32 10)
  ; The sum of 1..100000 is positive, so this guard never fires.
  %bad = icmp eq i64 %s, 0
  br i1 %bad, label %never, label %finish
never:
  call i32 @putchar(i32 33)
  unreachable
finish:
  %m = urem i64 %s, 97
  %st64 = add i64 %m, %e2
  %st = trunc i64 %st64 to i32
  ret i32 %st
}
