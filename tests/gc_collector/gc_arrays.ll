; Arrays in the collected heap, walked through interior pointers: a scalar array filled through a
; cursor and compared against an end pointer (both derived from the array, relocated at every
; safepoint); an array of boxes, each box allocated while a derived pointer to its slot in the array
; is live; null values among the gc-live values; a deopt value that only fits a ConstantIndex.

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare ptr addrspace(1) @llvm.experimental.gc.result.p1(token)
declare i64 @llvm.experimental.gc.result.i64(token)

declare ptr addrspace(1) @gc_alloc(i64, i64)
declare void @gc_safepoint()
declare void @print_kv(i64, i64)

; An array of %n scalars holding i*i + %k, written through a cursor.
define ptr addrspace(1) @squares(i64 %n, i64 %k) gc "statepoint-example" {
entry:
  %t0 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 300, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 0, i64 %n, i32 0, i32 0) [ "deopt"(i64 %n, i64 81985529216486895) ]
  %arr = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t0)
  %end = getelementptr i64, ptr addrspace(1) %arr, i64 %n
  br label %loop

loop:
  %a = phi ptr addrspace(1) [ %arr, %entry ], [ %a.r, %body ]
  %p = phi ptr addrspace(1) [ %arr, %entry ], [ %p.next, %body ]
  %e = phi ptr addrspace(1) [ %end, %entry ], [ %e.r, %body ]
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %done = icmp eq ptr addrspace(1) %p, %e
  br i1 %done, label %exit, label %body

body:
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 301, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %i, i32 -1), "gc-live"(ptr addrspace(1) %a, ptr addrspace(1) %p, ptr addrspace(1) %e) ]
  %a.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  %p.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 1)
  %e.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 2)
  %sq = mul i64 %i, %i
  %v = add i64 %sq, %k
  store i64 %v, ptr addrspace(1) %p.r
  %p.next = getelementptr i64, ptr addrspace(1) %p.r, i64 1
  %i1 = add i64 %i, 1
  br label %loop

exit:
  ret ptr addrspace(1) %a
}

; The sum of a scalar array's first %n elements, read backwards from its end pointer.
define i64 @sum_back(ptr addrspace(1) %arr, i64 %n) gc "statepoint-example" {
entry:
  %end = getelementptr i64, ptr addrspace(1) %arr, i64 %n
  br label %loop

loop:
  %a = phi ptr addrspace(1) [ %arr, %entry ], [ %a.r, %body ]
  %p = phi ptr addrspace(1) [ %end, %entry ], [ %p.r, %body ]
  %acc = phi i64 [ 0, %entry ], [ %acc1, %body ]
  %done = icmp eq ptr addrspace(1) %p, %a
  br i1 %done, label %exit, label %body

body:
  %q = getelementptr i64, ptr addrspace(1) %p, i64 -1
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 310, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %acc), "gc-live"(ptr addrspace(1) %a, ptr addrspace(1) %q) ]
  %a.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  %p.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 1)
  %v = load i64, ptr addrspace(1) %p.r
  %acc7 = mul i64 %acc, 7
  %acc1 = add i64 %acc7, %v
  br label %loop

exit:
  ret i64 %acc
}

; An array of %n pointers; slot i holds a box (one scalar, 7i + 3), except every fifth slot, which
; stays null. Each box is allocated while a pointer to its slot is live.
define ptr addrspace(1) @boxes(i64 %n) gc "statepoint-example" {
entry:
  %t0 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 320, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 %n, i64 0, i32 0, i32 0) [ "deopt"(i64 %n) ]
  %arr = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t0)
  br label %loop

loop:
  %a = phi ptr addrspace(1) [ %arr, %entry ], [ %a.next, %latch ]
  %i = phi i64 [ 0, %entry ], [ %i1, %latch ]
  %done = icmp eq i64 %i, %n
  br i1 %done, label %exit, label %body

body:
  %r5 = urem i64 %i, 5
  %skip = icmp eq i64 %r5, 4
  br i1 %skip, label %latch, label %fill

fill:
  %slot = getelementptr ptr addrspace(1), ptr addrspace(1) %a, i64 %i
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 321, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 0, i64 1, i32 0, i32 0) [ "deopt"(i64 %i), "gc-live"(ptr addrspace(1) %a, ptr addrspace(1) %slot, ptr addrspace(1) null) ]
  %box = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %a.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  %slot.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 1)
  %z = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 2, i32 2)
  %i7 = mul i64 %i, 7
  %v = add i64 %i7, 3
  %isnull = icmp eq ptr addrspace(1) %z, null
  %one = zext i1 %isnull to i64
  %v1 = add i64 %v, %one
  %v2 = sub i64 %v1, 1
  store i64 %v2, ptr addrspace(1) %box
  store ptr addrspace(1) %box, ptr addrspace(1) %slot.r
  br label %latch

latch:
  %a.next = phi ptr addrspace(1) [ %a, %body ], [ %a.r, %fill ]
  %i1 = add i64 %i, 1
  br label %loop

exit:
  ret ptr addrspace(1) %a
}

; The sum of i * box value over the non-null slots, and (in the high half) how many slots are null.
define i64 @sum_boxes(ptr addrspace(1) %arr, i64 %n) gc "statepoint-example" {
entry:
  br label %loop

loop:
  %a = phi ptr addrspace(1) [ %arr, %entry ], [ %a.next, %latch ]
  %i = phi i64 [ 0, %entry ], [ %i1, %latch ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %latch ]
  %done = icmp eq i64 %i, %n
  br i1 %done, label %exit, label %body

body:
  %slot = getelementptr ptr addrspace(1), ptr addrspace(1) %a, i64 %i
  %box = load ptr addrspace(1), ptr addrspace(1) %slot
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 330, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %i, i64 %acc), "gc-live"(ptr addrspace(1) %a, ptr addrspace(1) %box) ]
  %a.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  %box.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 1, i32 1)
  %isnull = icmp eq ptr addrspace(1) %box.r, null
  br i1 %isnull, label %empty, label %full

empty:
  %acc.e = add i64 %acc, 4294967296
  br label %latch

full:
  %v = load i64, ptr addrspace(1) %box.r
  %w = mul i64 %v, %i
  %acc.f = add i64 %acc, %w
  br label %latch

latch:
  %a.next = phi ptr addrspace(1) [ %a.r, %empty ], [ %a.r, %full ]
  %acc.next = phi i64 [ %acc.e, %empty ], [ %acc.f, %full ]
  %i1 = add i64 %i, 1
  br label %loop

exit:
  ret i64 %acc
}

define i64 @gc_main() gc "statepoint-example" {
entry:
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @squares, i32 2, i32 0, i64 200, i64 11, i32 0, i32 0) [ "deopt"(i32 1) ]
  %sq = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 2, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @boxes, i32 1, i32 0, i64 150, i32 0, i32 0) [ "deopt"(i32 2), "gc-live"(ptr addrspace(1) %sq, ptr addrspace(1) null) ]
  %bx = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t2)
  %sq.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  %t3 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 3, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @sum_back, i32 2, i32 0, ptr addrspace(1) %sq.2, i64 200, i32 0, i32 0) [ "deopt"(i32 3), "gc-live"(ptr addrspace(1) %sq.2, ptr addrspace(1) %bx) ]
  %s1 = call i64 @llvm.experimental.gc.result.i64(token %t3)
  %sq.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 0, i32 0)
  %bx.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 1, i32 1)
  call void @print_kv(i64 1, i64 %s1)
  %t4 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @sum_boxes, i32 2, i32 0, ptr addrspace(1) %bx.3, i64 150, i32 0, i32 0) [ "deopt"(i32 4), "gc-live"(ptr addrspace(1) %sq.3, ptr addrspace(1) %bx.3) ]
  %s2 = call i64 @llvm.experimental.gc.result.i64(token %t4)
  %sq.4 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t4, i32 0, i32 0)
  call void @print_kv(i64 2, i64 %s2)
  %mid = getelementptr i64, ptr addrspace(1) %sq.4, i64 100
  %t5 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 5, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @sum_back, i32 2, i32 0, ptr addrspace(1) %sq.4, i64 10, i32 0, i32 0) [ "deopt"(i32 5), "gc-live"(ptr addrspace(1) %sq.4, ptr addrspace(1) %mid) ]
  %s3 = call i64 @llvm.experimental.gc.result.i64(token %t5)
  %mid.5 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t5, i32 0, i32 1)
  %m = load i64, ptr addrspace(1) %mid.5
  call void @print_kv(i64 3, i64 %s3)
  call void @print_kv(i64 4, i64 %m)
  %x = xor i64 %s1, %s2
  %y = add i64 %x, %s3
  ret i64 %y
}
