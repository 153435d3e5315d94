; Stack memory: allocas whose element count comes from a loop variable (in a callee and directly in a
; loop body), allocas with explicit large alignment checked through ptrtoint, arrays of each integer
; width on the stack, and volatile loads and stores that must all happen. Exit status: 64 + count of
; aligned allocas that were aligned (3) = 67.
source_filename = "dynamic_alloca_volatile.ll"

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

; Fills an n-element stack array with squares and sums it back; n is dynamic.
define internal i64 @sum_squares(i32 %n) {
entry:
  %buf = alloca i64, i32 %n, align 8
  br label %fill
fill:
  %i = phi i32 [ 0, %entry ], [ %i1, %fill ]
  %i64 = zext i32 %i to i64
  %sq = mul i64 %i64, %i64
  %p = getelementptr inbounds i64, ptr %buf, i64 %i64
  store i64 %sq, ptr %p
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, %n
  br i1 %more, label %fill, label %sum
sum:
  %j = phi i32 [ 0, %fill ], [ %j1, %sum ]
  %acc = phi i64 [ 0, %fill ], [ %acc1, %sum ]
  %j64 = zext i32 %j to i64
  %q = getelementptr inbounds i64, ptr %buf, i64 %j64
  %v = load i64, ptr %q
  %acc1 = add i64 %acc, %v
  %j1 = add i32 %j, 1
  %jm = icmp ult i32 %j1, %n
  br i1 %jm, label %sum, label %exit
exit:
  ret i64 %acc1
}

; Reverses n bytes in a dynamically sized i8 buffer (count is i64) and returns a digest.
define internal i64 @reverse_digest(i64 %n) {
entry:
  %buf = alloca i8, i64 %n
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i1, %fill ]
  %b = trunc i64 %i to i8
  %b3 = mul i8 %b, 37
  %p = getelementptr inbounds i8, ptr %buf, i64 %i
  store i8 %b3, ptr %p
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %fill, label %digest
digest:
  %j = phi i64 [ 0, %fill ], [ %j1, %digest ]
  %h = phi i64 [ 7, %fill ], [ %h2, %digest ]
  %rj = sub i64 %n, %j
  %rj1 = sub i64 %rj, 1
  %q = getelementptr inbounds i8, ptr %buf, i64 %rj1
  %v = load i8, ptr %q
  %v64 = zext i8 %v to i64
  %h1 = mul i64 %h, 31
  %h2 = add i64 %h1, %v64
  %j1 = add i64 %j, 1
  %jm = icmp ult i64 %j1, %n
  br i1 %jm, label %digest, label %exit
exit:
  ret i64 %h2
}

define i32 @main() {
entry:
  %big = alloca [16 x i8], align 64
  %wide = alloca i64, align 32
  %pair = alloca [2 x i16], align 16
  %b = ptrtoint ptr %big to i64
  %w = ptrtoint ptr %wide to i64
  %p = ptrtoint ptr %pair to i64
  %b_lo = and i64 %b, 63
  %w_lo = and i64 %w, 31
  %p_lo = and i64 %p, 15
  %b_ok = icmp eq i64 %b_lo, 0
  %w_ok = icmp eq i64 %w_lo, 0
  %p_ok = icmp eq i64 %p_lo, 0
  %b_n = zext i1 %b_ok to i32
  %w_n = zext i1 %w_ok to i32
  %p_n = zext i1 %p_ok to i32
  %n1 = add i32 %b_n, %w_n
  %aligned = add i32 %n1, %p_n
  ; Volatile traffic: every store and load below must be performed, in order.
  store volatile i64 1, ptr %wide, align 32
  %v1 = load volatile i64, ptr %wide, align 32
  %v1b = add i64 %v1, 41
  store volatile i64 %v1b, ptr %wide
  %v2 = load volatile i64, ptr %wide
  call void @out(i64 %v2)
  %h1 = getelementptr inbounds [2 x i16], ptr %pair, i64 0, i64 1
  store volatile i16 -2, ptr %pair, align 2
  store volatile i16 300, ptr %h1
  %lo = load volatile i16, ptr %pair
  %hi = load volatile i16, ptr %h1
  %lo64 = zext i16 %lo to i64
  %hi64 = sext i16 %hi to i64
  call void @out(i64 %lo64)
  call void @out(i64 %hi64)
  %bb = getelementptr inbounds [16 x i8], ptr %big, i64 0, i64 15
  store volatile i8 -1, ptr %bb, align 1
  %bv = load volatile i8, ptr %bb
  %bv64 = zext i8 %bv to i64
  call void @out(i64 %bv64)
  call i32 @putchar(i32 10)
  br label %loop
loop:
  %n = phi i32 [ 1, %entry ], [ %n1x, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc2, %loop ]
  %s = call i64 @sum_squares(i32 %n)
  call void @out(i64 %s)
  ; A dynamic alloca directly in the loop body: the stack grows each iteration, boundedly.
  %tmp = alloca i32, i32 %n, align 4
  %last_i = sub i32 %n, 1
  %last = getelementptr inbounds i32, ptr %tmp, i32 %last_i
  store i32 %n, ptr %last
  %lv = load i32, ptr %last
  %lv64 = zext i32 %lv to i64
  %acc1 = add i64 %acc, %s
  %acc2 = add i64 %acc1, %lv64
  %n1x = add i32 %n, 1
  %more = icmp ule i32 %n1x, 6
  br i1 %more, label %loop, label %after
after:
  call void @out(i64 %acc2)
  %rd = call i64 @reverse_digest(i64 40)
  call void @out(i64 %rd)
  call i32 @putchar(i32 10)
  %st = add i32 %aligned, 64
  ret i32 %st
}
