; Indirect calls: addresses of internal and private functions stored into an alloca'd [4 x ptr] and
; called through loaded pointers in a loop, a higher-order function taking a function pointer, a
; select between two callees, comparison of function pointers, a void callee with mixed i64/double
; arguments called indirectly, and putchar itself called through a pointer. Exit status: (3^2)^2 - 3 = 78.
source_filename = "indirect_calls.ll"

@total = internal global i64 0

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

define internal ccc i32 @inc(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

define private i32 @dbl(i32 %x) {
  %r = shl i32 %x, 1
  ret i32 %r
}

define internal i32 @square(i32 %x) {
  %r = mul i32 %x, %x
  ret i32 %r
}

define private i32 @minus3(i32 %x) {
  %r = sub i32 %x, 3
  ret i32 %r
}

define internal void @accumulate(i64 %a, double %scale, i32 %b) {
  %af = sitofp i64 %a to double
  %m = fmul double %af, %scale
  %mi = fptosi double %m to i64
  %bw = sext i32 %b to i64
  %s = add i64 %mi, %bw
  %old = load i64, ptr @total
  %new = add i64 %old, %s
  store i64 %new, ptr @total
  ret void
}

; Applies f to x n times.
define internal i32 @apply_n(ptr %f, i32 %x, i32 %n) {
entry:
  %none = icmp eq i32 %n, 0
  br i1 %none, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %v = phi i32 [ %x, %entry ], [ %v1, %loop ]
  %v1 = call i32 %f(i32 %v)
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %r = phi i32 [ %x, %entry ], [ %v1, %loop ]
  ret i32 %r
}

define i32 @main() {
entry:
  %table = alloca [4 x ptr], align 8
  %t1 = getelementptr inbounds [4 x ptr], ptr %table, i64 0, i64 1
  %t2 = getelementptr inbounds [4 x ptr], ptr %table, i64 0, i64 2
  %t3 = getelementptr inbounds [4 x ptr], ptr %table, i64 0, i64 3
  store ptr @inc, ptr %table
  store ptr @dbl, ptr %t1
  store ptr @square, ptr %t2
  store ptr @minus3, ptr %t3
  br label %loop
loop:
  ; acc = minus3(square(dbl(inc(acc)))) over three rounds, printing each step.
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 1, %entry ], [ %acc1, %loop ]
  %slot_i = and i64 %i, 3
  %slot = getelementptr inbounds [4 x ptr], ptr %table, i64 0, i64 %slot_i
  %fp = load ptr, ptr %slot
  %acc1 = call i32 %fp(i32 %acc)
  %acc64 = zext i32 %acc1 to i64
  call void @print_u64(i64 %acc64)
  call i32 @putchar(i32 32)
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, 12
  br i1 %more, label %loop, label %after
after:
  call i32 @putchar(i32 10)
  %sq = load ptr, ptr %t2
  %h = call ccc i32 @apply_n(ptr %sq, i32 3, i32 2)
  %h2 = call i32 @apply_n(ptr @dbl, i32 5, i32 10)
  %h3 = call i32 @apply_n(ptr @inc, i32 5, i32 0)
  %h64 = zext i32 %h to i64
  %h2_64 = zext i32 %h2 to i64
  %h3_64 = zext i32 %h3 to i64
  call void @print_u64(i64 %h64)
  call i32 @putchar(i32 32)
  call void @print_u64(i64 %h2_64)
  call i32 @putchar(i32 32)
  call void @print_u64(i64 %h3_64)
  call i32 @putchar(i32 10)
  ; Picks a callee with select, and compares function pointers.
  %big = icmp ugt i32 %h, 50
  %pick = select i1 %big, ptr @minus3, ptr @inc
  %pr = call i32 %pick(i32 %h)
  %is_minus3 = icmp eq ptr %pick, @minus3
  %differ = icmp ne ptr %sq, @inc
  %pr64 = zext i32 %pr to i64
  call void @print_u64(i64 %pr64)
  call i32 @putchar(i32 32)
  %f1 = zext i1 %is_minus3 to i32
  %f2 = zext i1 %differ to i32
  %f12 = add i32 %f1, %f2
  %fc = add i32 %f12, 48
  ; putchar through a pointer kept in memory.
  %pc = alloca ptr
  store ptr @putchar, ptr %pc
  %putc = load ptr, ptr %pc
  call i32 %putc(i32 %fc)
  call i32 %putc(i32 10)
  %acc_fp = alloca ptr
  store ptr @accumulate, ptr %acc_fp
  %af = load ptr, ptr %acc_fp
  call void %af(i64 100, double 2.5, i32 -7)
  call void %af(i64 -40, double 0.25, i32 1000)
  %tot = load i64, ptr @total
  call void @print_u64(i64 %tot)
  call i32 @putchar(i32 10)
  %st = and i32 %pr, 127
  ret i32 %st
}
