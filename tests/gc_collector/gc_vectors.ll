; Vectors of GC pointers (issue 27, item 1): a `<2 x ptr addrspace(1)>` of two boxes lives across
; safepoints and allocations in gc-live, relocated whole by `gc.relocate.v2p1` (its record location
; is one Indirect slot of 16 bytes: a (base, derived) pair of vectors, lane by lane); its lanes are
; swapped with `shufflevector` and replaced with `insertelement` between safepoints; a second vector
; holds a null lane.

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token, i32, i32)
declare ptr addrspace(1) @llvm.experimental.gc.result.p1(token)

declare ptr addrspace(1) @gc_alloc(i64, i64)
declare void @gc_safepoint()
declare void @print_kv(i64, i64)

define i64 @gc_main() gc "statepoint-example" {
entry:
  %t0 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 401, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @box, i32 1, i32 0, i64 10, i32 0, i32 0) [ "deopt"(i64 0) ]
  %a = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t0)
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 402, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @box, i32 1, i32 0, i64 20, i32 0, i32 0) [ "deopt"(i64 1), "gc-live"(ptr addrspace(1) %a) ]
  %b = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %a.1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t1, i32 0, i32 0)
  %v0 = insertelement <2 x ptr addrspace(1)> poison, ptr addrspace(1) %a.1, i64 0
  %v = insertelement <2 x ptr addrspace(1)> %v0, ptr addrspace(1) %b, i64 1
  %n0 = insertelement <2 x ptr addrspace(1)> zeroinitializer, ptr addrspace(1) %b, i64 1
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %pair = phi <2 x ptr addrspace(1)> [ %v, %entry ], [ %pair.next, %body ]
  %half = phi <2 x ptr addrspace(1)> [ %n0, %entry ], [ %half.r3, %body ]
  %acc = phi i64 [ 0, %entry ], [ %acc1, %body ]
  %done = icmp eq i64 %i, 40
  br i1 %done, label %exit, label %body

body:
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 403, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %i), "gc-live"(<2 x ptr addrspace(1)> %pair, <2 x ptr addrspace(1)> %half) ]
  %pair.r = call <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token %t2, i32 0, i32 0)
  %half.r = call <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token %t2, i32 1, i32 1)
  %swapped = shufflevector <2 x ptr addrspace(1)> %pair.r, <2 x ptr addrspace(1)> poison, <2 x i32> <i32 1, i32 0>
  %k = mul i64 %i, 7
  %t3 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 404, i32 0, ptr elementtype(ptr addrspace(1) (i64)) @box, i32 1, i32 0, i64 %k, i32 0, i32 0) [ "deopt"(i64 %i, i64 %k), "gc-live"(<2 x ptr addrspace(1)> %swapped, <2 x ptr addrspace(1)> %half.r) ]
  %fresh = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t3)
  %swapped.r = call <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token %t3, i32 0, i32 0)
  %half.r3 = call <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token %t3, i32 1, i32 1)
  ; Every third round the fresh box replaces lane 0.
  %r3 = urem i64 %i, 3
  %replace = icmp eq i64 %r3, 0
  %with.fresh = insertelement <2 x ptr addrspace(1)> %swapped.r, ptr addrspace(1) %fresh, i64 0
  %pair.next = select i1 %replace, <2 x ptr addrspace(1)> %with.fresh, <2 x ptr addrspace(1)> %swapped.r
  %pa = extractelement <2 x ptr addrspace(1)> %pair.next, i64 0
  %pb = extractelement <2 x ptr addrspace(1)> %pair.next, i64 1
  %va = load i64, ptr addrspace(1) %pa
  %vb = load i64, ptr addrspace(1) %pb
  %s = add i64 %va, %vb
  %h = extractelement <2 x ptr addrspace(1)> %half.r3, i64 1
  %hv = load i64, ptr addrspace(1) %h
  %l0 = extractelement <2 x ptr addrspace(1)> %pair.next, i64 0
  %l0v = load i64, ptr addrspace(1) %l0
  call void @print_kv(i64 %i, i64 %l0v)
  %acc0 = mul i64 %acc, 3
  %acc.s = add i64 %acc0, %s
  %acc1 = add i64 %acc.s, %hv
  %i1 = add i64 %i, 1
  br label %loop

exit:
  ret i64 %acc
}

; A box: an object of one scalar, %v. Defined after gc_main: in a version-1 section (no record
; counts per function) a record of gc_main's could otherwise be box's as well.
define ptr addrspace(1) @box(i64 %v) gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 400, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 0, i64 1, i32 0, i32 0) [ "deopt"(i64 %v) ]
  %b = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %tok)
  store i64 %v, ptr addrspace(1) %b
  ret ptr addrspace(1) %b
}
