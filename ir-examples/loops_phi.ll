; Loops whose state lives in phis: counted sums, nested loops, Collatz, Euclid's gcd with a swapped
; pair of phis, iterative i64 Fibonacci, a loop with two exits, and a loop-invariant value used across
; iterations. Exit status: gcd(1071, 462) = 21.
source_filename = "loops_phi.ll"

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

define internal void @println(i64 %v) {
entry:
  call void @print_u64(i64 %v)
  call i32 @putchar(i32 10)
  ret void
}

; 1 + 2 + ... + n
define internal i32 @sum_to(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %acc1 = add nsw i32 %acc, %i
  %i1 = add nsw i32 %i, 1
  %cont = icmp sle i32 %i1, %n
  br i1 %cont, label %loop, label %exit
exit:
  ret i32 %acc1
}

; Number of pairs i < j below n, and the sum of i*j over them, from a doubly nested loop.
define internal i64 @pairs(i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %outer_latch ]
  %cnt = phi i64 [ 0, %entry ], [ %cnt_out, %outer_latch ]
  %j0 = add i32 %i, 1
  %empty = icmp sge i32 %j0, %n
  br i1 %empty, label %outer_latch, label %inner
inner:
  %j = phi i32 [ %j0, %outer ], [ %j1, %inner ]
  %c = phi i64 [ %cnt, %outer ], [ %c1, %inner ]
  %ij = mul i32 %i, %j
  %ij64 = sext i32 %ij to i64
  %c_ij = add i64 %c, %ij64
  %c1 = add i64 %c_ij, 1000000
  %j1 = add i32 %j, 1
  %jm = icmp slt i32 %j1, %n
  br i1 %jm, label %inner, label %outer_latch
outer_latch:
  %cnt_out = phi i64 [ %cnt, %outer ], [ %c1, %inner ]
  %i1 = add i32 %i, 1
  %im = icmp slt i32 %i1, %n
  br i1 %im, label %outer, label %exit
exit:
  ret i64 %cnt_out
}

define internal i32 @collatz_steps(i64 %start) {
entry:
  br label %head
head:
  %x = phi i64 [ %start, %entry ], [ %x_next, %latch ]
  %steps = phi i32 [ 0, %entry ], [ %steps1, %latch ]
  %is_one = icmp eq i64 %x, 1
  br i1 %is_one, label %exit, label %body
body:
  %bit = and i64 %x, 1
  %odd = icmp ne i64 %bit, 0
  br i1 %odd, label %odd_b, label %even_b
odd_b:
  %t = mul i64 %x, 3
  %t1 = add i64 %t, 1
  br label %latch
even_b:
  %h = lshr i64 %x, 1
  br label %latch
latch:
  %x_next = phi i64 [ %t1, %odd_b ], [ %h, %even_b ]
  %steps1 = add i32 %steps, 1
  br label %head
exit:
  ret i32 %steps
}

; Euclid: the pair (a, b) becomes (b, a mod b); the phis swap roles each iteration.
define internal i32 @gcd(i32 %a0, i32 %b0) {
entry:
  br label %loop
loop:
  %a = phi i32 [ %a0, %entry ], [ %b, %body ]
  %b = phi i32 [ %b0, %entry ], [ %r, %body ]
  %z = icmp eq i32 %b, 0
  br i1 %z, label %exit, label %body
body:
  %r = urem i32 %a, %b
  br label %loop
exit:
  ret i32 %a
}

define internal i64 @fib_iter(i32 %n) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %a = phi i64 [ 0, %entry ], [ %b, %loop ]
  %b = phi i64 [ 1, %entry ], [ %ab, %loop ]
  %ab = add i64 %a, %b
  %k1 = add i32 %k, 1
  %more = icmp ult i32 %k1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret i64 %b
}

; First index in [0, limit) where i*i*i > target, or limit: a loop with two exits feeding one phi.
define internal i32 @cube_root_ceil(i32 %target, i32 %limit) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %next ]
  %at_limit = icmp uge i32 %i, %limit
  br i1 %at_limit, label %exit, label %check
check:
  %sq = mul i32 %i, %i
  %cube = mul i32 %sq, %i
  %over = icmp ugt i32 %cube, %target
  br i1 %over, label %exit, label %next
next:
  %i1 = add i32 %i, 1
  br label %head
exit:
  %res = phi i32 [ %limit, %head ], [ %i, %check ]
  ret i32 %res
}

; A countdown loop whose body runs at least once (do-while), halving an i16.
define internal i16 @halvings(i16 %x) {
entry:
  br label %body
body:
  %v = phi i16 [ %x, %entry ], [ %v1, %body ]
  %n = phi i16 [ 0, %entry ], [ %n1, %body ]
  %v1 = udiv i16 %v, 2
  %n1 = add i16 %n, 1
  %nz = icmp ne i16 %v1, 0
  br i1 %nz, label %body, label %exit
exit:
  ret i16 %n1
}

define i32 @main() {
entry:
  %s = call i32 @sum_to(i32 100)
  %s64 = zext i32 %s to i64
  call void @println(i64 %s64)
  %p = call i64 @pairs(i32 20)
  call void @println(i64 %p)
  %c = call i32 @collatz_steps(i64 27)
  %c64 = zext i32 %c to i64
  call void @println(i64 %c64)
  %g = call i32 @gcd(i32 1071, i32 462)
  %g64 = zext i32 %g to i64
  call void @println(i64 %g64)
  %f = call i64 @fib_iter(i32 90)
  call void @println(i64 %f)
  %r1 = call i32 @cube_root_ceil(i32 1000, i32 50)
  %r1_64 = zext i32 %r1 to i64
  call void @println(i64 %r1_64)
  %r2 = call i32 @cube_root_ceil(i32 1000000, i32 50)
  %r2_64 = zext i32 %r2 to i64
  call void @println(i64 %r2_64)
  %h = call i16 @halvings(i16 40000)
  %h64 = zext i16 %h to i64
  call void @println(i64 %h64)
  ret i32 %g
}
