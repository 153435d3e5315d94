; Linked lists in the collected heap: built by loops that allocate through statepoints (and through
; a statepoint calling an allocating function), summed with a safepoint per node that relocates a
; derived pointer to the node's value, reversed in place with a safepoint per node. Each node has
; one pointer field (next) and one scalar field (value).

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare ptr addrspace(1) @llvm.experimental.gc.result.p1(token)
declare i64 @llvm.experimental.gc.result.i64(token)

declare ptr addrspace(1) @gc_alloc(i64, i64)
declare void @gc_safepoint()
declare void @print_i64(i64)
declare void @print_kv(i64, i64)

; A new node holding %v in front of %next (which survives the allocation).
define ptr addrspace(1) @cons(i64 %v, ptr addrspace(1) %next) gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 100, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 1, i64 1, i32 0, i32 0) [ "deopt"(i64 %v), "gc-live"(ptr addrspace(1) %next) ]
  %node = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %tok)
  %next.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  store ptr addrspace(1) %next.r, ptr addrspace(1) %node
  %vp = getelementptr i64, ptr addrspace(1) %node, i64 1
  store i64 %v, ptr addrspace(1) %vp
  ret ptr addrspace(1) %node
}

; The list (i*i + %seed) mod 1009 for i = 0 .. %n-1, built back to front through @cons.
define ptr addrspace(1) @build(i64 %n, i64 %seed) gc "statepoint-example" {
entry:
  br label %loop

loop:
  %i = phi i64 [ %n, %entry ], [ %i1, %body ]
  %head = phi ptr addrspace(1) [ null, %entry ], [ %head1, %body ]
  %done = icmp eq i64 %i, 0
  br i1 %done, label %exit, label %body

body:
  %i1 = sub i64 %i, 1
  %sq = mul i64 %i1, %i1
  %sqs = add i64 %sq, %seed
  %v = urem i64 %sqs, 1009
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 101, i32 0, ptr elementtype(ptr addrspace(1) (i64, ptr addrspace(1))) @cons, i32 2, i32 0, i64 %v, ptr addrspace(1) %head, i32 0, i32 0) [ "deopt"(i64 %i1, i32 1) ]
  %head1 = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %tok)
  br label %loop

exit:
  ret ptr addrspace(1) %head
}

; An order-sensitive checksum of the values, read through a pointer to field %field of each node
; (a derived pointer kept across the safepoint).
define i64 @sum(ptr addrspace(1) %list, i64 %field) gc "statepoint-example" {
entry:
  br label %loop

loop:
  %node = phi ptr addrspace(1) [ %list, %entry ], [ %next, %body ]
  %acc = phi i64 [ 0, %entry ], [ %acc1, %body ]
  %k = phi i64 [ 0, %entry ], [ %k1, %body ]
  %end = icmp eq ptr addrspace(1) %node, null
  br i1 %end, label %exit, label %body

body:
  %vp = getelementptr i64, ptr addrspace(1) %node, i64 %field
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 102, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %k, i64 %acc), "gc-live"(ptr addrspace(1) %node, ptr addrspace(1) %vp) ]
  %node.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  %vp.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 1)
  %v = load i64, ptr addrspace(1) %vp.r
  %next = load ptr addrspace(1), ptr addrspace(1) %node.r
  %acc31 = mul i64 %acc, 31
  %acc1 = add i64 %acc31, %v
  %k1 = add i64 %k, 1
  br label %loop

exit:
  %mix = mul i64 %k, 1000000007
  %r = xor i64 %acc, %mix
  ret i64 %r
}

; Reverses the list in place, with a safepoint at every node.
define ptr addrspace(1) @reverse(ptr addrspace(1) %list) gc "statepoint-example" {
entry:
  br label %loop

loop:
  %prev = phi ptr addrspace(1) [ null, %entry ], [ %cur.r, %body ]
  %cur = phi ptr addrspace(1) [ %list, %entry ], [ %next.r, %body ]
  %end = icmp eq ptr addrspace(1) %cur, null
  br i1 %end, label %exit, label %body

body:
  %next = load ptr addrspace(1), ptr addrspace(1) %cur
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 103, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %prev, ptr addrspace(1) %cur, ptr addrspace(1) %next) ]
  %prev.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  %cur.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 1, i32 1)
  %next.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 2, i32 2)
  store ptr addrspace(1) %prev.r, ptr addrspace(1) %cur.r
  br label %loop

exit:
  ret ptr addrspace(1) %prev
}

; Prints the first %n values (no safepoint: a plain call that never collects).
define void @print_prefix(ptr addrspace(1) %list, i64 %n) gc "statepoint-example" {
entry:
  br label %loop

loop:
  %node = phi ptr addrspace(1) [ %list, %entry ], [ %next, %body ]
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %null = icmp eq ptr addrspace(1) %node, null
  %enough = icmp uge i64 %i, %n
  %stop = or i1 %null, %enough
  br i1 %stop, label %exit, label %body

body:
  %vp = getelementptr i64, ptr addrspace(1) %node, i64 1
  %v = load i64, ptr addrspace(1) %vp
  call void @print_kv(i64 %i, i64 %v)
  %next = load ptr addrspace(1), ptr addrspace(1) %node
  %i1 = add i64 %i, 1
  br label %loop

exit:
  ret void
}

define i64 @gc_main() gc "statepoint-example" {
entry:
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @build, i32 2, i32 0, i64 300, i64 7, i32 0, i32 0) [ "deopt"(i32 1) ]
  %a = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 2, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @build, i32 2, i32 0, i64 50, i64 500, i32 0, i32 0) [ "deopt"(i32 2), "gc-live"(ptr addrspace(1) %a) ]
  %b = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t2)
  %a.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  %t3 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 3, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @sum, i32 2, i32 0, ptr addrspace(1) %a.2, i64 1, i32 0, i32 0) [ "deopt"(i32 3), "gc-live"(ptr addrspace(1) %a.2, ptr addrspace(1) %b) ]
  %sa = call i64 @llvm.experimental.gc.result.i64(token %t3)
  %a.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 0, i32 0)
  %b.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 1, i32 1)
  call void @print_kv(i64 1, i64 %sa)
  %t4 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @sum, i32 2, i32 0, ptr addrspace(1) %b.3, i64 1, i32 0, i32 0) [ "deopt"(i32 4), "gc-live"(ptr addrspace(1) %a.3, ptr addrspace(1) %b.3) ]
  %sb = call i64 @llvm.experimental.gc.result.i64(token %t4)
  %a.4 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t4, i32 0, i32 0)
  %b.4 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t4, i32 1, i32 1)
  call void @print_kv(i64 2, i64 %sb)
  %t5 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 5, i32 0, ptr elementtype(ptr addrspace(1) (ptr addrspace(1))) @reverse, i32 1, i32 0, ptr addrspace(1) %a.4, i32 0, i32 0) [ "deopt"(i32 5), "gc-live"(ptr addrspace(1) %b.4) ]
  %r = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t5)
  %b.5 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t5, i32 0, i32 0)
  %t6 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 6, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @sum, i32 2, i32 0, ptr addrspace(1) %r, i64 1, i32 0, i32 0) [ "deopt"(i32 6), "gc-live"(ptr addrspace(1) %r, ptr addrspace(1) %b.5) ]
  %sr = call i64 @llvm.experimental.gc.result.i64(token %t6)
  %r.6 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t6, i32 0, i32 0)
  %b.6 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t6, i32 1, i32 1)
  call void @print_kv(i64 3, i64 %sr)
  call void @print_prefix(ptr addrspace(1) %r.6, i64 5)
  call void @print_prefix(ptr addrspace(1) %b.6, i64 3)
  %x = xor i64 %sa, %sb
  %y = add i64 %x, %sr
  ret i64 %y
}
