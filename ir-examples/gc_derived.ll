; GC statepoints (issue 12): derived pointers relocated with (base, derived) indices. A derived pointer
; with a small constant offset next to its base's relocate (llc-19 -O2 rewrites it into a GEP of the
; relocated base, so its pair disappears), one with a large offset (kept), one without a relocate of
; its base, a GEP of a GEP, a null and a duplicate in gc-live, unused relocates, and GC pointers in the
; deopt bundle (each gets a (p, p) pair). Relocated pointers are compared with the heap's start.

@heap = global [32 x i64] zeroinitializer, align 8

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @putchar(i32)

define internal i64 @peek(ptr addrspace(1) %p) {
entry:
  %v = load i64, ptr addrspace(1) %p
  ret i64 %v
}

define internal i64 @offset(ptr addrspace(1) %p) {
entry:
  %i = ptrtoint ptr addrspace(1) %p to i64
  %h = ptrtoint ptr @heap to i64
  %o = sub i64 %i, %h
  ret i64 %o
}

define internal i64 @derived(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c) gc "statepoint-example" {
entry:
  %d16 = getelementptr i8, ptr addrspace(1) %a, i64 16
  %d40 = getelementptr i8, ptr addrspace(1) %a, i64 40
  %e8 = getelementptr i64, ptr addrspace(1) %b, i64 1
  %e24 = getelementptr i8, ptr addrspace(1) %e8, i64 16
  %tok1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 200, i32 0, ptr elementtype(i64 (ptr addrspace(1))) @peek, i32 1, i32 0, ptr addrspace(1) %d16, i32 0, i32 0) [ "deopt"(ptr addrspace(1) %c, i32 1), "gc-live"(ptr addrspace(1) %a, ptr addrspace(1) %d16, ptr addrspace(1) %d40, ptr addrspace(1) %b, ptr addrspace(1) %e8, ptr addrspace(1) %e24, ptr addrspace(1) null, ptr addrspace(1) %a) ]
  %r1 = call i64 @llvm.experimental.gc.result.i64(token %tok1)
  %a1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 0, i32 0)
  %d16r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 0, i32 1)
  %d40r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 0, i32 2)
  %e8r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 3, i32 4)
  %e24r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 3, i32 5)
  %nr = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 6, i32 6)
  %dup = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 7, i32 7)
  %o1 = call i64 @offset(ptr addrspace(1) %a1)
  %o2 = call i64 @offset(ptr addrspace(1) %d16r)
  %o3 = call i64 @offset(ptr addrspace(1) %d40r)
  %o4 = call i64 @offset(ptr addrspace(1) %e8r)
  %o5 = call i64 @offset(ptr addrspace(1) %e24r)
  %s1 = add i64 %o1, %o2
  %s2 = mul i64 %s1, 7
  %s3 = add i64 %s2, %o3
  %s4 = mul i64 %s3, 7
  %s5 = add i64 %s4, %o4
  %s6 = mul i64 %s5, 7
  %s7 = add i64 %s6, %o5
  %s8 = add i64 %s7, %r1
  ; Second statepoint: derived pointers of the relocated base, a deopt GC pointer that is also relocated.
  %f8 = getelementptr i64, ptr addrspace(1) %a1, i64 2
  %tok2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 201, i32 0, ptr elementtype(i64 (ptr addrspace(1))) @offset, i32 1, i32 0, ptr addrspace(1) %e24r, i32 0, i32 0) [ "deopt"(ptr addrspace(1) %a1, i64 %s8, ptr addrspace(1) null), "gc-live"(ptr addrspace(1) %f8, ptr addrspace(1) %a1, ptr addrspace(1) %d40r) ]
  %r2 = call i64 @llvm.experimental.gc.result.i64(token %tok2)
  %f8r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok2, i32 1, i32 0)
  %a2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok2, i32 1, i32 1)
  %o6 = call i64 @offset(ptr addrspace(1) %f8r)
  %o7 = call i64 @offset(ptr addrspace(1) %a2)
  %s9 = mul i64 %s8, 7
  %s10 = add i64 %s9, %o6
  %s11 = mul i64 %s10, 7
  %s12 = add i64 %s11, %o7
  %s13 = add i64 %s12, %r2
  ret i64 %s13
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
  store i64 77, ptr getelementptr (i8, ptr @heap, i64 16)
  %o1 = getelementptr i8, ptr @heap, i64 0
  %o2 = getelementptr i8, ptr @heap, i64 64
  %o3 = getelementptr i8, ptr @heap, i64 128
  %p1 = addrspacecast ptr %o1 to ptr addrspace(1)
  %p2 = addrspacecast ptr %o2 to ptr addrspace(1)
  %p3 = addrspacecast ptr %o3 to ptr addrspace(1)
  %r = call i64 @derived(ptr addrspace(1) %p1, ptr addrspace(1) %p2, ptr addrspace(1) %p3)
  call void @print_u64(i64 %r)
  call i32 @putchar(i32 10)
  %low = and i64 %r, 127
  %status = trunc i64 %low to i32
  ret i32 %status
}
