; Recursive in-place quicksort (Lomuto partition) over an alloca'd [64 x i64] filled by a 64-bit LCG,
; with pointer arguments, swaps through GEPs, and a sortedness check. Exit status: 1 + the number of
; adjacent pairs out of order, so 1 when sorted.
source_filename = "quicksort_i64.ll"

declare i32 @putchar(i32)

define internal void @print_i64(i64 %v) {
entry:
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %digits
minus:
  call i32 @putchar(i32 45)
  br label %digits
digits:
  %mag0 = sub i64 0, %v
  %mag = select i1 %neg, i64 %mag0, i64 %v
  call void @print_u64(i64 %mag)
  call i32 @putchar(i32 32)
  ret void
}

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

define internal void @swap(ptr %a, ptr %b) {
  %x = load i64, ptr %a
  %y = load i64, ptr %b
  store i64 %y, ptr %a
  store i64 %x, ptr %b
  ret void
}

; Sorts a[lo..hi] inclusive; lo and hi are signed so that hi may be lo - 1.
define internal void @quicksort(ptr %a, i64 %lo, i64 %hi) {
entry:
  %small = icmp sge i64 %lo, %hi
  br i1 %small, label %exit, label %part
part:
  %pp = getelementptr inbounds i64, ptr %a, i64 %hi
  %pivot = load i64, ptr %pp
  br label %scan
scan:
  %j = phi i64 [ %lo, %part ], [ %j1, %scan_next ]
  %i = phi i64 [ %lo, %part ], [ %i_next, %scan_next ]
  %pj = getelementptr inbounds i64, ptr %a, i64 %j
  %vj = load i64, ptr %pj
  %lt = icmp slt i64 %vj, %pivot
  br i1 %lt, label %take, label %scan_next
take:
  %pi = getelementptr inbounds i64, ptr %a, i64 %i
  call void @swap(ptr %pi, ptr %pj)
  %i1 = add nsw i64 %i, 1
  br label %scan_next
scan_next:
  %i_next = phi i64 [ %i, %scan ], [ %i1, %take ]
  %j1 = add nsw i64 %j, 1
  %more = icmp slt i64 %j1, %hi
  br i1 %more, label %scan, label %place
place:
  %pfin = getelementptr inbounds i64, ptr %a, i64 %i_next
  call void @swap(ptr %pfin, ptr %pp)
  %left_hi = sub nsw i64 %i_next, 1
  %right_lo = add nsw i64 %i_next, 1
  call void @quicksort(ptr %a, i64 %lo, i64 %left_hi)
  call void @quicksort(ptr %a, i64 %right_lo, i64 %hi)
  br label %exit
exit:
  ret void
}

define i32 @main() {
entry:
  %arr = alloca [64 x i64], align 8
  br label %fill
fill:
  %k = phi i64 [ 0, %entry ], [ %k1, %fill ]
  %s = phi i64 [ 12345, %entry ], [ %s1, %fill ]
  %sm = mul i64 %s, 6364136223846793005
  %s1 = add i64 %sm, 1442695040888963407
  ; Keep the top bits, signed, so that the values span negatives and positives.
  %v = ashr i64 %s1, 50
  %pk = getelementptr inbounds [64 x i64], ptr %arr, i64 0, i64 %k
  store i64 %v, ptr %pk
  %k1 = add i64 %k, 1
  %km = icmp ult i64 %k1, 64
  br i1 %km, label %fill, label %sort
sort:
  %base = getelementptr inbounds [64 x i64], ptr %arr, i64 0, i64 0
  call void @quicksort(ptr %base, i64 0, i64 63)
  br label %check
check:
  %c = phi i64 [ 1, %sort ], [ %c1, %check ]
  %bad = phi i32 [ 0, %sort ], [ %bad1, %check ]
  %cm1 = sub i64 %c, 1
  %pa = getelementptr inbounds [64 x i64], ptr %arr, i64 0, i64 %cm1
  %pb = getelementptr inbounds [64 x i64], ptr %arr, i64 0, i64 %c
  %va = load i64, ptr %pa
  %vb = load i64, ptr %pb
  %ooo = icmp sgt i64 %va, %vb
  %ooo32 = zext i1 %ooo to i32
  %bad1 = add i32 %bad, %ooo32
  %c1 = add i64 %c, 1
  %cm = icmp ult i64 %c1, 64
  br i1 %cm, label %check, label %show
show:
  br label %print
print:
  %q = phi i64 [ 0, %show ], [ %q1, %print ]
  %pq = getelementptr inbounds [64 x i64], ptr %arr, i64 0, i64 %q
  %vq = load i64, ptr %pq
  call void @print_i64(i64 %vq)
  %q1 = add i64 %q, 7
  %qm = icmp ult i64 %q1, 64
  br i1 %qm, label %print, label %done
done:
  call i32 @putchar(i32 10)
  %st = add i32 %bad1, 1
  ret i32 %st
}
