; gc_invoke.ll with GC pointers in registers on the normal edge (patchmap's and llc-19's
; --max-registers-for-gc-values): the landing pad relocates only the node %a (which stays in its
; frame slot, as llc-19 keeps what a pad relocates) and finds the derived pointer again through
; it, so %b and %bv are relocated on the normal edge only, in callee-saved registers across the
; invoked statepoint of @collect_then_throw. Prints what gc_invoke.ll prints.
;
; @collect_then_throw collects through a statepoint of its own and then throws through thrower.cc's
; @throw_long (which does not collect): the collector finds a register root in the register file
; its entry captured or in a generated frame's save slot, so no C++ frame may sit between @hold and
; the collection (one that saves the register for its own use would hide the root's value).
;
; Exceptions through statepoints: @hold keeps a node, its successor and a derived pointer to the
; successor's value across an `invoke` of a statepoint of @collect_then_throw (which may
; collect, then throws its argument as a C++ `long` when it is not 0), and reads them back through
; `gc.relocate`s on the normal edge and, of the landing pad's token, on the exceptional edge.
; Under GC_STRESS=1 the collection moves every object first, so either edge reading a stale
; pointer faults (from-space is made inaccessible) or prints something else.
;
; The landing pad is a `landingpad token` (statepoints' relocates need a token), which gives no
; exception object: the caught `long` is not passed to __cxa_begin_catch, and leaks.

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare ptr addrspace(1) @llvm.experimental.gc.result.p1(token)
declare i64 @llvm.experimental.gc.result.i64(token)

declare ptr addrspace(1) @gc_alloc(i64, i64)
declare void @gc_safepoint()
declare void @throw_long(i64)
declare void @print_kv(i64, i64)
declare i32 @__gxx_personality_v0(...)

@_ZTIl = external constant ptr

; Two nodes a -> b, with values %x and %y.
define ptr addrspace(1) @pair(i64 %x, i64 %y) gc "statepoint-example" {
entry:
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 1, i64 1, i32 0, i32 0)
  %b = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t1)
  %bv = getelementptr i64, ptr addrspace(1) %b, i64 1
  store i64 %y, ptr addrspace(1) %bv
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 2, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc, i32 2, i32 0, i64 1, i64 1, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %b) ]
  %a = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t2)
  %b.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t2, i32 0, i32 0)
  store ptr addrspace(1) %b.r, ptr addrspace(1) %a
  %av = getelementptr i64, ptr addrspace(1) %a, i64 1
  store i64 %x, ptr addrspace(1) %av
  ret ptr addrspace(1) %a
}

; Prints (edge, x * 1000 + y) as read through the relocated node and derived pointer, and whether
; the derived pointer still points into the node's successor (1) or not (0). No safepoint.
define i64 @check(i64 %edge, ptr addrspace(1) %a, ptr addrspace(1) %bv) {
entry:
  %av = getelementptr i64, ptr addrspace(1) %a, i64 1
  %x = load i64, ptr addrspace(1) %av
  %y = load i64, ptr addrspace(1) %bv
  %x1000 = mul i64 %x, 1000
  %xy = add i64 %x1000, %y
  call void @print_kv(i64 %edge, i64 %xy)
  %b = load ptr addrspace(1), ptr addrspace(1) %a
  %bv.expected = getelementptr i64, ptr addrspace(1) %b, i64 1
  %same = icmp eq ptr addrspace(1) %bv, %bv.expected
  %same64 = zext i1 %same to i64
  call void @print_kv(i64 %edge, i64 %same64)
  ret i64 %xy
}

define i64 @hold(i64 %code, i64 %x, i64 %y) gc "statepoint-example" personality ptr @__gxx_personality_v0 {
entry:
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 3, i32 0, ptr elementtype(ptr addrspace(1) (i64, i64)) @pair, i32 2, i32 0, i64 %x, i64 %y, i32 0, i32 0)
  %a = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %t)
  %b = load ptr addrspace(1), ptr addrspace(1) %a
  %bv = getelementptr i64, ptr addrspace(1) %b, i64 1
  %s = invoke token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4, i32 0, ptr elementtype(void (i64)) @collect_then_throw, i32 1, i32 0, i64 %code, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %bv) ]
          to label %returned unwind label %caught

returned:
  %a.n = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %s, i32 0, i32 0)
  %bv.n = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %s, i32 1, i32 2)
  %r.n = call i64 @check(i64 0, ptr addrspace(1) %a.n, ptr addrspace(1) %bv.n)
  ret i64 %r.n

caught:
  %pad = landingpad token
          catch ptr @_ZTIl
  %a.c = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %pad, i32 0, i32 0)
  %b.c = load ptr addrspace(1), ptr addrspace(1) %a.c
  %bv.c = getelementptr i64, ptr addrspace(1) %b.c, i64 1
  %r.c = call i64 @check(i64 1, ptr addrspace(1) %a.c, ptr addrspace(1) %bv.c)
  %r.neg = sub i64 0, %r.c
  ret i64 %r.neg
}

define i64 @gc_main() gc "statepoint-example" {
entry:
  %t1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 5, i32 0, ptr elementtype(i64 (i64, i64, i64)) @hold, i32 3, i32 0, i64 0, i64 3, i64 4, i32 0, i32 0)
  %r1 = call i64 @llvm.experimental.gc.result.i64(token %t1)
  %t2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 6, i32 0, ptr elementtype(i64 (i64, i64, i64)) @hold, i32 3, i32 0, i64 42, i64 5, i64 6, i32 0, i32 0)
  %r2 = call i64 @llvm.experimental.gc.result.i64(token %t2)
  call void @print_kv(i64 %r1, i64 %r2)
  ret i64 0
}

; Collects, then throws %code as a C++ `long` when it is not 0.
define void @collect_then_throw(i64 %code) gc "statepoint-example" {
entry:
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 5, i32 0, ptr elementtype(void ()) @gc_safepoint, i32 0, i32 0, i32 0, i32 0)
  %throws = icmp ne i64 %code, 0
  br i1 %throws, label %throw, label %done

throw:
  call void @throw_long(i64 %code)
  unreachable

done:
  ret void
}
