; GC statepoints (issue 12) in a loop: pointers live across the back edge flow through phis of their
; relocations, a nested statepoint (a GC function calling another through a statepoint), allocas as a
; deopt value (an address: Direct) and in gc-live (a gc alloca: Direct after the pairs), flags = 0.

@heap = global [64 x i64] zeroinitializer, align 8

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @putchar(i32)

define internal i64 @bump(ptr addrspace(1) %p, i64 %k) {
entry:
  %v = load i64, ptr addrspace(1) %p
  %n = add i64 %v, %k
  store i64 %n, ptr addrspace(1) %p
  ret i64 %n
}

define internal i64 @inner(ptr addrspace(1) %p, i64 %k) gc "statepoint-example" {
entry:
  %q = getelementptr i64, ptr addrspace(1) %p, i64 3
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 300, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @bump, i32 2, i32 0, ptr addrspace(1) %q, i64 %k, i32 0, i32 0) [ "deopt"(i64 %k, i8 9), "gc-live"(ptr addrspace(1) %p, ptr addrspace(1) %q) ]
  %r = call i64 @llvm.experimental.gc.result.i64(token %tok)
  %q2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 1)
  %v = load i64, ptr addrspace(1) %q2
  %s = add i64 %r, %v
  ret i64 %s
}

define internal i64 @looping(ptr addrspace(1) %a, ptr addrspace(1) %b) gc "statepoint-example" {
entry:
  %slot = alloca i64, align 8
  store i64 4242, ptr %slot
  %root = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %b, ptr %root
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %pa = phi ptr addrspace(1) [ %a, %entry ], [ %pa2, %loop ]
  %pb = phi ptr addrspace(1) [ %b, %entry ], [ %pb2, %loop ]
  %d = getelementptr i8, ptr addrspace(1) %pa, i64 48
  %i32 = trunc i64 %i to i32
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 301, i32 0, ptr elementtype(i64 (ptr addrspace(1), i64)) @inner, i32 2, i32 0, ptr addrspace(1) %pb, i64 %i, i32 0, i32 0) [ "deopt"(i64 %i, i32 %i32, i64 %acc, ptr %slot), "gc-live"(ptr addrspace(1) %pa, ptr addrspace(1) %pb, ptr addrspace(1) %d, ptr %root) ]
  %r = call i64 @llvm.experimental.gc.result.i64(token %tok)
  %pa2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  %pb2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 1, i32 1)
  %d2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 2)
  %v = load i64, ptr addrspace(1) %d2
  %x = add i64 %r, %v
  %y = mul i64 %acc, 3
  %acc.next = add i64 %y, %x
  store i64 %acc.next, ptr addrspace(1) %d2
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 5
  br i1 %more, label %loop, label %done
done:
  %last = load ptr addrspace(1), ptr %root
  %lv = load i64, ptr addrspace(1) %last
  %out = add i64 %acc.next, %lv
  ret i64 %out
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

define i32 @main() {
entry:
  %o1 = getelementptr i8, ptr @heap, i64 64
  %o2 = getelementptr i8, ptr @heap, i64 256
  %p1 = addrspacecast ptr %o1 to ptr addrspace(1)
  %p2 = addrspacecast ptr %o2 to ptr addrspace(1)
  %r = call i64 @looping(ptr addrspace(1) %p1, ptr addrspace(1) %p2)
  call void @print_u64(i64 %r)
  call i32 @putchar(i32 10)
  %low = and i64 %r, 127
  %status = trunc i64 %low to i32
  ret i32 %status
}
