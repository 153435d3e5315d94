; Pointers as integers: ptrtoint of GEPs gives byte distances, inttoptr of an adjusted address is
; stored and loaded through, ptrtoint to i32 of an aligned address keeps its zero low bits, the
; constant expression inttoptr (i64 0 to ptr) equals null, ptrtoint null is 0, and a linear search
; returns null when a key is absent. Exit status: 3 * (distance of arr[5] from arr[0] in bytes) / 4 = 15.
source_filename = "pointers_int.ll"

@arr = internal global [8 x i32] [i32 5, i32 8, i32 13, i32 21, i32 34, i32 55, i32 89, i32 144], align 16

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

; The address of the first element equal to key, or null.
define internal ptr @find(ptr %base, i64 %n, i32 %key) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %done = icmp eq i64 %i, %n
  br i1 %done, label %missing, label %body
body:
  %p = getelementptr inbounds i32, ptr %base, i64 %i
  %v = load i32, ptr %p
  %hit = icmp eq i32 %v, %key
  br i1 %hit, label %found, label %next
next:
  %i1 = add i64 %i, 1
  br label %loop
found:
  ret ptr %p
missing:
  ret ptr null
}

define i32 @main() {
entry:
  %p0 = getelementptr inbounds [8 x i32], ptr @arr, i64 0, i64 0
  %p5 = getelementptr inbounds [8 x i32], ptr @arr, i64 0, i64 5
  %a0 = ptrtoint ptr %p0 to i64
  %a5 = ptrtoint ptr %p5 to i64
  %dist = sub i64 %a5, %a0
  call void @out(i64 %dist)
  ; Step from arr[5] to arr[6] through integers, then load and store through the result.
  %a6 = add i64 %a5, 4
  %p6 = inttoptr i64 %a6 to ptr
  %v6 = load i32, ptr %p6
  ; A plain (not inbounds) GEP computes the same address.
  %p6g = getelementptr i32, ptr %p5, i64 1
  %p6same = icmp eq ptr %p6, %p6g
  %p6s = zext i1 %p6same to i64
  call void @out(i64 %p6s)
  %v6_64 = zext i32 %v6 to i64
  call void @out(i64 %v6_64)
  store i32 1000, ptr %p6
  %g6 = getelementptr inbounds [8 x i32], ptr @arr, i64 0, i64 6
  %v6b = load i32, ptr %g6
  %v6b_64 = zext i32 %v6b to i64
  call void @out(i64 %v6b_64)
  ; The array is 16-byte aligned; so is a local of align 16.
  %low = ptrtoint ptr @arr to i32
  %low4 = and i32 %low, 15
  %low4_64 = zext i32 %low4 to i64
  call void @out(i64 %low4_64)
  %local = alloca [4 x i64], align 16
  %la = ptrtoint ptr %local to i64
  %la4 = and i64 %la, 15
  call void @out(i64 %la4)
  call i32 @putchar(i32 10)
  ; null handling.
  %cnull = icmp eq ptr inttoptr (i64 0 to ptr), null
  %nulli = ptrtoint ptr null to i64
  %c1 = zext i1 %cnull to i64
  call void @out(i64 %c1)
  call void @out(i64 %nulli)
  %f1 = call ptr @find(ptr @arr, i64 8, i32 34)
  %f2 = call ptr @find(ptr @arr, i64 8, i32 35)
  %f1null = icmp eq ptr %f1, null
  %f2null = icmp eq ptr %f2, null
  %f1n = zext i1 %f1null to i64
  %f2n = zext i1 %f2null to i64
  call void @out(i64 %f1n)
  call void @out(i64 %f2n)
  %f1a = ptrtoint ptr %f1 to i64
  %f1off = sub i64 %f1a, %a0
  %f1idx = lshr exact i64 %f1off, 2
  call void @out(i64 %f1idx)
  ; A pointer kept as an integer in memory, then turned back into a pointer.
  %cell = alloca i64
  store i64 %a0, ptr %cell
  %back = load i64, ptr %cell
  %pb = inttoptr i64 %back to ptr
  %first = load i32, ptr %pb
  %first64 = zext i32 %first to i64
  call void @out(i64 %first64)
  %pcell = alloca ptr
  store ptr %p5, ptr %pcell
  %pl = load ptr, ptr %pcell
  %same = icmp eq ptr %pl, %p5
  %same64 = zext i1 %same to i64
  call void @out(i64 %same64)
  call i32 @putchar(i32 10)
  %d32 = trunc i64 %dist to i32
  %d3 = mul i32 %d32, 3
  %st = udiv exact i32 %d3, 4
  ret i32 %st
}
