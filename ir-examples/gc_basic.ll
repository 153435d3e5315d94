; GC statepoints (issue 12): GC pointers into a static heap, statepoints calling ordinary functions
; with gc.result (i64, i32, double, void), relocates used after the call, deopt constants of every kind,
; and a statepoint whose call is replaced by 16 bytes of nops (NUMPATCHBYTES). Prints a checksum.

@heap = global [16 x i64] [i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15, i64 16], align 8

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @llvm.experimental.gc.result.i32(token)
declare double @llvm.experimental.gc.result.f64(token)
declare i32 @putchar(i32)

define internal i64 @twice(i64 %x) {
entry:
  %r = mul i64 %x, 2
  ret i64 %r
}

define internal i32 @negate(i32 %x) {
entry:
  %r = sub i32 0, %x
  ret i32 %r
}

define internal double @half(double %x) {
entry:
  %r = fmul double %x, 0.5
  ret double %r
}

define internal void @nothing() {
entry:
  ret void
}

define internal i64 @work(ptr addrspace(1) %a, ptr addrspace(1) %b, i64 %x, i32 %y, i8 %z, double %w) gc "statepoint-example" {
entry:
  %tok1 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 100, i32 0, ptr elementtype(i64 (i64)) @twice, i32 1, i32 0, i64 %x, i32 0, i32 0) [ "deopt"(i64 %x, i32 %y, i8 %z, double %w, i32 5, i64 12345678901, i8 -1, i1 true, double 1.5, double 0.0, float 2.5, float -2.5, i64 undef, ptr null), "gc-live"(ptr addrspace(1) %a, ptr addrspace(1) %b) ]
  %r1 = call i64 @llvm.experimental.gc.result.i64(token %tok1)
  %a1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 0, i32 0)
  %b1 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok1, i32 1, i32 1)
  %va = load i64, ptr addrspace(1) %a1
  %vb = load i64, ptr addrspace(1) %b1
  %s1 = add i64 %va, %vb
  %s2 = add i64 %s1, %r1
  %tok2 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 101, i32 0, ptr elementtype(i32 (i32)) @negate, i32 1, i32 0, i32 %y, i32 0, i32 0) [ "deopt"(i64 %s2, i32 -2147483648, i64 2147483648), "gc-live"(ptr addrspace(1) %b1, ptr addrspace(1) %a1) ]
  %r2 = call i32 @llvm.experimental.gc.result.i32(token %tok2)
  %b2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok2, i32 0, i32 0)
  %a2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok2, i32 1, i32 1)
  %r2w = sext i32 %r2 to i64
  %s3 = add i64 %s2, %r2w
  store i64 %s3, ptr addrspace(1) %a2
  %tok3 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 102, i32 0, ptr elementtype(double (double)) @half, i32 1, i32 0, double %w, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %a2, ptr addrspace(1) %b2) ]
  %r3 = call double @llvm.experimental.gc.result.f64(token %tok3)
  %a3 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok3, i32 0, i32 0)
  %r3i = fptosi double %r3 to i64
  %s4 = add i64 %s3, %r3i
  ; No call: 16 bytes of nops (a multiple of 4 for AArch64).
  %tok4 = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 103, i32 16, ptr elementtype(void ()) @nothing, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %s4, double -2.25), "gc-live"(ptr addrspace(1) %a3) ]
  %a4 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok4, i32 0, i32 0)
  %va4 = load i64, ptr addrspace(1) %a4
  %s5 = add i64 %s4, %va4
  ret i64 %s5
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
  %o1 = getelementptr i8, ptr @heap, i64 16
  %o2 = getelementptr i8, ptr @heap, i64 64
  %p1 = addrspacecast ptr %o1 to ptr addrspace(1)
  %p2 = addrspacecast ptr %o2 to ptr addrspace(1)
  %r = call i64 @work(ptr addrspace(1) %p1, ptr addrspace(1) %p2, i64 21, i32 7, i8 -3, double 9.0)
  call void @print_u64(i64 %r)
  call i32 @putchar(i32 10)
  %low = and i64 %r, 127
  %status = trunc i64 %low to i32
  ret i32 %status
}
