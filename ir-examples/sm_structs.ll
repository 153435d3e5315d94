; Stack maps whose live values come from struct fields: extractvalue from a struct a call returns
; ({ i64, double } in two registers), from an aggregate load of an array-of-structs element, from a
; nested array member, a GEP load of a field, a GEP to a double field; fields of an aggregate phi
; built by insertvalue in a loop (from a constant struct), and of a select of two structs.
; Exit status: (x + v0 + f1 + a0 + k0) & 63.
source_filename = "sm_structs.ll"

declare i32 @putchar(i32)
declare void @llvm.experimental.stackmap(i64, i32, ...)

; Ground truth for tests/stackmaps/checker_llc.rs: each stack map execution is announced by a line "S<id>" with
; one token per live value, in operand order: " <bits>:<hex>" (the value's bits), " *<bits>:<hex>"
; (the first bits a pointer points to) or " -" (not checked: undef).
define internal void @dec(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @dec(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @hex(i64 %v) {
entry:
  %big = icmp uge i64 %v, 16
  br i1 %big, label %rec, label %digit
rec:
  %q = lshr i64 %v, 4
  call void @hex(i64 %q)
  br label %digit
digit:
  %d = and i64 %v, 15
  %d32 = trunc i64 %d to i32
  %letter = icmp uge i32 %d32, 10
  %base = select i1 %letter, i32 87, i32 48
  %c = add i32 %base, %d32
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @sm_begin(i64 %id) {
  call i32 @putchar(i32 83)
  call void @dec(i64 %id)
  ret void
}

define internal void @sm_end() {
  call i32 @putchar(i32 10)
  ret void
}

define internal void @sm_val(i64 %bits, i64 %v) {
  call i32 @putchar(i32 32)
  call void @dec(i64 %bits)
  call i32 @putchar(i32 58)
  call void @hex(i64 %v)
  ret void
}

define internal void @sm_mem(i64 %bits, i64 %v) {
  call i32 @putchar(i32 32)
  call i32 @putchar(i32 42)
  call void @dec(i64 %bits)
  call i32 @putchar(i32 58)
  call void @hex(i64 %v)
  ret void
}

define internal void @sm_skip() {
  call i32 @putchar(i32 32)
  call i32 @putchar(i32 45)
  ret void
}

%struct.node = type { i32, i16, ptr, [2 x i8] }
%struct.pair = type { i64, double }

@nodes = internal global [3 x %struct.node] [%struct.node { i32 7, i16 -2, ptr @nodes, [2 x i8] c"ab" }, %struct.node { i32 -9, i16 300, ptr getelementptr inbounds ([3 x %struct.node], ptr @nodes, i64 0, i64 2), [2 x i8] c"cd" }, %struct.node zeroinitializer], align 16
@seed = internal global i64 3, align 8

define internal { i64, double } @make(i64 %a) {
entry:
  %f = sitofp i64 %a to double
  %h = fmul double %f, 5.000000e-01
  %p0 = insertvalue { i64, double } undef, i64 %a, 0
  %p1 = insertvalue { i64, double } %p0, double %h, 1
  ret { i64, double } %p1
}

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %pr = call { i64, double } @make(i64 %s)
  %x = extractvalue { i64, double } %pr, 0
  %y = extractvalue { i64, double } %pr, 1
  %n1 = getelementptr inbounds [3 x %struct.node], ptr @nodes, i64 0, i64 1
  %v = load %struct.node, ptr %n1, align 8
  %v0 = extractvalue %struct.node %v, 0
  %v1 = extractvalue %struct.node %v, 1
  %v2 = extractvalue %struct.node %v, 2
  %c = extractvalue %struct.node %v, 3, 1
  %f1p = getelementptr inbounds %struct.node, ptr @nodes, i64 0, i32 1
  %f1 = load i16, ptr %f1p, align 4
  %slot = alloca %struct.pair, align 8
  %q0 = insertvalue %struct.pair undef, i64 %x, 0
  %q1 = insertvalue %struct.pair %q0, double %y, 1
  store %struct.pair %q1, ptr %slot, align 8
  %fp = getelementptr inbounds %struct.pair, ptr %slot, i32 0, i32 1
  call void @sm_begin(i64 170)
  call void @sm_val(i64 64, i64 %x)
  %sm.b272 = bitcast double %y to i64
  call void @sm_val(i64 64, i64 %sm.b272)
  %sm.b273 = zext i32 %v0 to i64
  call void @sm_val(i64 32, i64 %sm.b273)
  %sm.b274 = zext i16 %v1 to i64
  call void @sm_val(i64 16, i64 %sm.b274)
  %sm.a275 = load i32, ptr %v2
  %sm.b275 = zext i32 %sm.a275 to i64
  call void @sm_mem(i64 32, i64 %sm.b275)
  %sm.b276 = zext i8 %c to i64
  call void @sm_val(i64 8, i64 %sm.b276)
  %sm.b277 = zext i16 %f1 to i64
  call void @sm_val(i64 16, i64 %sm.b277)
  %sm.a278 = load double, ptr %fp
  %sm.b278 = bitcast double %sm.a278 to i64
  call void @sm_mem(i64 64, i64 %sm.b278)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 170, i32 0, i64 %x, double %y, i32 %v0, i16 %v1, ptr %v2, i8 %c, i16 %f1, ptr %fp)
  br label %loop

loop:
  %acc = phi { i64, i32 } [ { i64 1, i32 0 }, %entry ], [ %acc2, %loop ]
  %a0 = extractvalue { i64, i32 } %acc, 0
  %a1 = extractvalue { i64, i32 } %acc, 1
  call void @sm_begin(i64 171)
  call void @sm_val(i64 64, i64 %a0)
  %sm.b280 = zext i32 %a1 to i64
  call void @sm_val(i64 32, i64 %sm.b280)
  %sm.a281 = load i64, ptr %slot
  call void @sm_mem(i64 64, i64 %sm.a281)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 171, i32 8, i64 %a0, i32 %a1, ptr %slot)
  %m = mul i64 %a0, 3
  %i1 = add i32 %a1, 1
  %t = insertvalue { i64, i32 } %acc, i64 %m, 0
  %acc2 = insertvalue { i64, i32 } %t, i32 %i1, 1
  store i64 %m, ptr %slot, align 8
  %done = icmp eq i32 %i1, 4
  br i1 %done, label %exit, label %loop

exit:
  %odd = trunc i64 %s to i1
  %other = insertvalue %struct.pair %q1, i64 11, 0
  %pick = select i1 %odd, %struct.pair %other, %struct.pair %q1
  %k0 = extractvalue %struct.pair %pick, 0
  %k1 = extractvalue %struct.pair %pick, 1
  call void @sm_begin(i64 172)
  call void @sm_val(i64 64, i64 %k0)
  %sm.b283 = bitcast double %k1 to i64
  call void @sm_val(i64 64, i64 %sm.b283)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 172, i32 0, i64 %k0, double %k1)
  %sum1 = add i64 %x, %a0
  %sum2 = add i64 %sum1, %k0
  %w0 = sext i32 %v0 to i64
  %sum3 = add i64 %sum2, %w0
  %w1 = sext i16 %f1 to i64
  %sum4 = add i64 %sum3, %w1
  %st64 = and i64 %sum4, 63
  %st = trunc i64 %st64 to i32
  ret i32 %st
}
