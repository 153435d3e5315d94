; Binary trees in the collected heap, built, checked and mirrored by recursive functions: every
; recursive call is a statepoint, so a collection walks through many compiled frames, each with its
; own record; a derived pointer to a node's right-child field survives the recursive call that
; computes the child. Each node has two pointer fields (left, right) and one scalar (its label).

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare ptr addrspace(1) @llvm.experimental.gc.result.p1(token)
declare i64 @llvm.experimental.gc.result.i64(token)

declare ptr addrspace(1) @gc_alloc(i64, i64)
declare void @gc_safepoint()
declare void @print_kv(i64, i64)

; A complete tree of %depth levels whose root is labelled %label and whose node k has children 2k and
; 2k+1.
define ptr addrspace(1) @make(i64 %depth, i64 %label) gc "statepoint-example" {
entry:
  %leaf = icmp eq i64 %depth, 0
  br i1 %leaf, label %empty, label %node

empty:
  ret ptr addrspace(1) null

node:
  %t0 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 200, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 2, i64 1, i32 0, i32 0) [ "deopt"(i64 %depth, i64 %label, i32 7) ]
  %n = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t0)
  %vp = getelementptr i64, ptr addrspace(1) %n, i64 2
  store i64 %label, ptr addrspace(1) %vp
  %d1 = sub i64 %depth, 1
  %l2 = shl i64 %label, 1
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 201, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @make, i32 2, i32 0, i64 %d1, i64 %l2, i32 0, i32 0) [ "deopt"(i64 %depth), "gc-live"(ptr addrspace(1) %n) ]
  %left = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %n.1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  store ptr addrspace(1) %left, ptr addrspace(1) %n.1
  %l3 = or i64 %l2, 1
  %rs = getelementptr ptr addrspace(1), ptr addrspace(1) %n.1, i64 1
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 202, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @make, i32 2, i32 0, i64 %d1, i64 %l3, i32 0, i32 0) [ "deopt"(i64 %depth, i64 %l3), "gc-live"(ptr addrspace(1) %n.1, ptr addrspace(1) %rs) ]
  %right = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t2)
  %n.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  %rs.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 1)
  store ptr addrspace(1) %right, ptr addrspace(1) %rs.2
  ret ptr addrspace(1) %n.2
}

; A position-sensitive checksum (a mirrored tree checks differently), with a safepoint at every node.
define i64 @check(ptr addrspace(1) %t, i64 %depth) gc "statepoint-example" {
entry:
  %empty = icmp eq ptr addrspace(1) %t, null
  br i1 %empty, label %none, label %node

none:
  ret i64 0

node:
  %t0 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 210, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %depth), "gc-live"(ptr addrspace(1) %t) ]
  %t.0 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t0, i32 0, i32 0)
  %left = load ptr addrspace(1), ptr addrspace(1) %t.0
  %d1 = add i64 %depth, 1
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 211, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @check, i32 2, i32 0, ptr addrspace(1) %left, i64 %d1, i32 0, i32 0) [ "deopt"(i64 %depth, i32 1), "gc-live"(ptr addrspace(1) %t.0) ]
  %cl = call i64 @llvm.experimental.gc.result.i64(token %t1)
  %t.1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  %rp = getelementptr ptr addrspace(1), ptr addrspace(1) %t.1, i64 1
  %right = load ptr addrspace(1), ptr addrspace(1) %rp
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 212, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @check, i32 2, i32 0, ptr addrspace(1) %right, i64 %d1, i32 0, i32 0) [ "deopt"(i64 %depth, i32 2, i64 %cl), "gc-live"(ptr addrspace(1) %t.1) ]
  %cr = call i64 @llvm.experimental.gc.result.i64(token %t2)
  %t.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  %vp = getelementptr i64, ptr addrspace(1) %t.2, i64 2
  %v = load i64, ptr addrspace(1) %vp
  %a = mul i64 %cl, 3
  %b = mul i64 %cr, 5
  %vd = mul i64 %v, %d1
  %ab = add i64 %a, %b
  %r = add i64 %ab, %vd
  ret i64 %r
}

; The number of nodes and the sum of their labels, as count * 2^32 + sum (the same for a mirror).
define i64 @census(ptr addrspace(1) %t) gc "statepoint-example" {
entry:
  %empty = icmp eq ptr addrspace(1) %t, null
  br i1 %empty, label %none, label %node

none:
  ret i64 0

node:
  %left = load ptr addrspace(1), ptr addrspace(1) %t
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 220, i32 0, ptr elementtype(i64 (ptr addrspace(1))) @census, i32 1, i32 0, ptr addrspace(1) %left, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %t) ]
  %cl = call i64 @llvm.experimental.gc.result.i64(token %t1)
  %t.1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  %rp = getelementptr ptr addrspace(1), ptr addrspace(1) %t.1, i64 1
  %right = load ptr addrspace(1), ptr addrspace(1) %rp
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 221, i32 0, ptr elementtype(i64 (ptr addrspace(1))) @census, i32 1, i32 0, ptr addrspace(1) %right, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %t.1) ]
  %cr = call i64 @llvm.experimental.gc.result.i64(token %t2)
  %t.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  %vp = getelementptr i64, ptr addrspace(1) %t.2, i64 2
  %v = load i64, ptr addrspace(1) %vp
  %one = add i64 %v, 4294967296
  %s = add i64 %cl, %cr
  %r = add i64 %s, %one
  ret i64 %r
}

; A new tree with the children swapped at every level; the original stays live (it is being walked).
define ptr addrspace(1) @mirror(ptr addrspace(1) %t) gc "statepoint-example" {
entry:
  %empty = icmp eq ptr addrspace(1) %t, null
  br i1 %empty, label %none, label %node

none:
  ret ptr addrspace(1) null

node:
  %t0 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 230, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 2, i64 1, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %t) ]
  %m = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t0)
  %t.0 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t0, i32 0, i32 0)
  %vp = getelementptr i64, ptr addrspace(1) %t.0, i64 2
  %v = load i64, ptr addrspace(1) %vp
  %mvp = getelementptr i64, ptr addrspace(1) %m, i64 2
  store i64 %v, ptr addrspace(1) %mvp
  %left = load ptr addrspace(1), ptr addrspace(1) %t.0
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 231, i32 0, ptr elementtype(ptr addrspace(1) (ptr addrspace(1))) @mirror, i32 1, i32 0, ptr addrspace(1) %left, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %t.0, ptr addrspace(1) %m) ]
  %ml = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %t.1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  %m.1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 1, i32 1)
  %mr.slot = getelementptr ptr addrspace(1), ptr addrspace(1) %m.1, i64 1
  store ptr addrspace(1) %ml, ptr addrspace(1) %mr.slot
  %rp = getelementptr ptr addrspace(1), ptr addrspace(1) %t.1, i64 1
  %right = load ptr addrspace(1), ptr addrspace(1) %rp
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 232, i32 0, ptr elementtype(ptr addrspace(1) (ptr addrspace(1))) @mirror, i32 1, i32 0, ptr addrspace(1) %right, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %m.1) ]
  %mr = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t2)
  %m.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  store ptr addrspace(1) %mr, ptr addrspace(1) %m.2
  ret ptr addrspace(1) %m.2
}

define i64 @gc_main() gc "statepoint-example" {
entry:
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @make, i32 2, i32 0, i64 9, i64 1, i32 0, i32 0) [ "deopt"(i32 10) ]
  %tree = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 2, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @check, i32 2, i32 0, ptr addrspace(1) %tree, i64 0, i32 0, i32 0) [ "deopt"(i32 20), "gc-live"(ptr addrspace(1) %tree) ]
  %c1 = call i64 @llvm.experimental.gc.result.i64(token %t2)
  %tree.2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  call void @print_kv(i64 1, i64 %c1)
  %t3 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 3, i32 0, ptr elementtype(ptr addrspace(1) (ptr addrspace(1))) @mirror, i32 1, i32 0, ptr addrspace(1) %tree.2, i32 0, i32 0) [ "deopt"(i32 30), "gc-live"(ptr addrspace(1) %tree.2) ]
  %mirror = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t3)
  %tree.3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t3, i32 0, i32 0)
  %t4 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @check, i32 2, i32 0, ptr addrspace(1) %mirror, i64 0, i32 0, i32 0) [ "deopt"(i32 40), "gc-live"(ptr addrspace(1) %tree.3, ptr addrspace(1) %mirror) ]
  %c2 = call i64 @llvm.experimental.gc.result.i64(token %t4)
  %tree.4 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t4, i32 0, i32 0)
  %mirror.4 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t4, i32 1, i32 1)
  call void @print_kv(i64 2, i64 %c2)
  %t5 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 5, i32 0, ptr elementtype(i64 (ptr addrspace(1))) @census, i32 1, i32 0, ptr addrspace(1) %tree.4, i32 0, i32 0) [ "deopt"(i32 50), "gc-live"(ptr addrspace(1) %mirror.4) ]
  %n1 = call i64 @llvm.experimental.gc.result.i64(token %t5)
  %mirror.5 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t5, i32 0, i32 0)
  call void @print_kv(i64 3, i64 %n1)
  %t6 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 6, i32 0, ptr elementtype(i64 (ptr addrspace(1))) @census, i32 1, i32 0, ptr addrspace(1) %mirror.5, i32 0, i32 0) [ "deopt"(i32 60) ]
  %n2 = call i64 @llvm.experimental.gc.result.i64(token %t6)
  call void @print_kv(i64 4, i64 %n2)
  %same = icmp eq i64 %n1, %n2
  %s = zext i1 %same to i64
  call void @print_kv(i64 5, i64 %s)
  %x = xor i64 %c1, %c2
  ret i64 %x
}
