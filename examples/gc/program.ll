; The mutator of `cargo run --example gc`: lists and trees in a garbage-collected heap.
;
; An object is a header word (number of pointer fields << 32 | number of integer fields), then its
; pointer fields, then its integer fields. GC pointers are `ptr addrspace(1)`; every call that may
; collect is a statepoint, and after it the code uses only the relocated pointers, as LLVM's
; RewriteStatepointsForGC leaves them.

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare ptr addrspace(1) @llvm.experimental.gc.result.p1(token)

; The runtime: allocation (zeroed fields; may collect) and a safepoint (may collect).
declare ptr addrspace(1) @gc_alloc(i64, i64)
declare void @gc_safepoint()

; A list cell { next, value }.
define ptr addrspace(1) @cons(i64 %v, ptr addrspace(1) %next) gc "statepoint-example" {
entry:
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 1, i64 1, i32 0, i32 0) [ "deopt"(i64 %v), "gc-live"(ptr addrspace(1) %next) ]
  %cell = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t)
  %next.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)
  %pn = getelementptr i8, ptr addrspace(1) %cell, i64 8
  store ptr addrspace(1) %next.r, ptr addrspace(1) %pn
  %pv = getelementptr i8, ptr addrspace(1) %cell, i64 16
  store i64 %v, ptr addrspace(1) %pv
  ret ptr addrspace(1) %cell
}

; The list (n-1)^2 mod 1000, ..., 1, 0: n cells, each made by a call of @cons (a statepoint in a loop).
define ptr addrspace(1) @build_list(i64 %n) gc "statepoint-example" {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %list = phi ptr addrspace(1) [ null, %entry ], [ %list1, %loop ]
  %sq = mul i64 %i, %i
  %v = urem i64 %sq, 1000
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 2, i32 0, ptr elementtype(ptr addrspace(1) (i64, ptr addrspace(1))) @cons, i32 2, i32 0, i64 %v, ptr addrspace(1) %list, i32 0, i32 0) [ "deopt"(i64 %i, i64 %n) ]
  %list1 = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t)
  %i1 = add i64 %i, 1
  %done = icmp uge i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret ptr addrspace(1) %list1
}

define i64 @sum_list(ptr addrspace(1) %list) {
entry:
  br label %loop
loop:
  %p = phi ptr addrspace(1) [ %list, %entry ], [ %next, %body ]
  %sum = phi i64 [ 0, %entry ], [ %sum1, %body ]
  %end = icmp eq ptr addrspace(1) %p, null
  br i1 %end, label %exit, label %body
body:
  %pv = getelementptr i8, ptr addrspace(1) %p, i64 16
  %v = load i64, ptr addrspace(1) %pv
  %sum1 = add i64 %sum, %v
  %pn = getelementptr i8, ptr addrspace(1) %p, i64 8
  %next = load ptr addrspace(1), ptr addrspace(1) %pn
  br label %loop
exit:
  ret i64 %sum
}

; A complete binary tree of nodes { left, right, depth }; recursion puts statepoints in many frames.
define ptr addrspace(1) @build_tree(i64 %depth) gc "statepoint-example" {
entry:
  %leaf = icmp eq i64 %depth, 0
  %d1 = sub i64 %depth, 1
  br i1 %leaf, label %make.leaf, label %make.node
make.leaf:
  %t0 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 3, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 2, i64 1, i32 0, i32 0)
  %l = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t0)
  %lv = getelementptr i8, ptr addrspace(1) %l, i64 24
  store i64 1, ptr addrspace(1) %lv
  ret ptr addrspace(1) %l
make.node:
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @build_tree, i32 1, i32 0, i64 %d1, i32 0, i32 0) [ "deopt"(i64 %depth) ]
  %left = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 5, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @build_tree, i32 1, i32 0, i64 %d1, i32 0, i32 0) [ "deopt"(i64 %depth), "gc-live"(ptr addrspace(1) %left) ]
  %right = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t2)
  %left.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  %t3 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 6, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 2, i64 1, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %left.2, ptr addrspace(1) %right) ]
  %node = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t3)
  %left.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 0, i32 0)
  %right.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 1, i32 1)
  %pl = getelementptr i8, ptr addrspace(1) %node, i64 8
  store ptr addrspace(1) %left.3, ptr addrspace(1) %pl
  %pr = getelementptr i8, ptr addrspace(1) %node, i64 16
  store ptr addrspace(1) %right.3, ptr addrspace(1) %pr
  %pd = getelementptr i8, ptr addrspace(1) %node, i64 24
  store i64 %depth, ptr addrspace(1) %pd
  ret ptr addrspace(1) %node
}

; A checksum that depends on the tree's shape: value + 3 * left + 5 * right.
define i64 @checksum(ptr addrspace(1) %t) {
entry:
  %null = icmp eq ptr addrspace(1) %t, null
  br i1 %null, label %zero, label %node
zero:
  ret i64 0
node:
  %pl = getelementptr i8, ptr addrspace(1) %t, i64 8
  %l = load ptr addrspace(1), ptr addrspace(1) %pl
  %pr = getelementptr i8, ptr addrspace(1) %t, i64 16
  %r = load ptr addrspace(1), ptr addrspace(1) %pr
  %pd = getelementptr i8, ptr addrspace(1) %t, i64 24
  %d = load i64, ptr addrspace(1) %pd
  %cl = call i64 @checksum(ptr addrspace(1) %l)
  %cr = call i64 @checksum(ptr addrspace(1) %r)
  %a = mul i64 %cl, 3
  %b = mul i64 %cr, 5
  %s = add i64 %a, %b
  %s1 = add i64 %s, %d
  ret i64 %s1
}

; Builds a tree that becomes garbage once summed, then a list and a tree, keeping a pointer into
; the list's first cell (a derived pointer) across the tree's construction and a safepoint; then
; reads everything back.
define i64 @kernel(i64 %n, i64 %depth) gc "statepoint-example" {
entry:
  %t0 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 9, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @build_tree, i32 1, i32 0, i64 %depth, i32 0, i32 0)
  %scratch = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t0)
  %garbage = call i64 @checksum(ptr addrspace(1) %scratch)
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 10, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @build_list, i32 1, i32 0, i64 %n, i32 0, i32 0)
  %list = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %value = getelementptr i8, ptr addrspace(1) %list, i64 16
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 11, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @build_tree, i32 1, i32 0, i64 %depth, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %list, ptr addrspace(1) %value) ]
  %tree = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t2)
  %value.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 1)
  br label %reread
reread:
  %list.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  %t3 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 12, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %n, i64 %depth), "gc-live"(ptr addrspace(1) %list.2, ptr addrspace(1) %tree, ptr addrspace(1) %value.2) ]
  %list.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 0, i32 0)
  %tree.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 1, i32 1)
  %value.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 0, i32 2)
  %sum = call i64 @sum_list(ptr addrspace(1) %list.3)
  %check = call i64 @checksum(ptr addrspace(1) %tree.3)
  %first = load i64, ptr addrspace(1) %value.3
  %a = mul i64 %sum, 1000003
  %b = add i64 %a, %check
  %c = mul i64 %first, 7
  %r = add i64 %b, %c
  %r1 = sub i64 %r, %garbage
  ret i64 %r1
}
