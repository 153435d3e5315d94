; i128 (issue 26): arithmetic, division through the C runtime's routines, shifts, comparisons,
; select, phi, casts to and from every width, memory layout (16 bytes aligned to 16 in structs and
; arrays), wide constants, overflow and bit intrinsics. Each result is printed as its two halves.
@fmt = private constant [14 x i8] c"%016lx%016lx\0A\00"
@fmt1 = private constant [4 x i8] c"%d\0A\00"
@table = global [3 x i128] [i128 1, i128 -170141183460469231731687303715884105728, i128 u0x123456789ABCDEF0FEDCBA9876543210]
@layout = global { i8, i128, i32 } { i8 7, i128 -2, i32 9 }

declare i32 @printf(ptr, ...)
declare { i128, i1 } @llvm.uadd.with.overflow.i128(i128, i128)
declare { i128, i1 } @llvm.sadd.with.overflow.i128(i128, i128)
declare { i128, i1 } @llvm.usub.with.overflow.i128(i128, i128)
declare { i128, i1 } @llvm.ssub.with.overflow.i128(i128, i128)
declare { i128, i1 } @llvm.umul.with.overflow.i128(i128, i128)
declare i128 @llvm.ctpop.i128(i128)
declare i128 @llvm.ctlz.i128(i128, i1)
declare i128 @llvm.cttz.i128(i128, i1)
declare i128 @llvm.bswap.i128(i128)
declare i128 @llvm.bitreverse.i128(i128)
declare i128 @llvm.fshl.i128(i128, i128, i128)
declare i128 @llvm.fshr.i128(i128, i128, i128)
declare i128 @llvm.smax.i128(i128, i128)
declare i128 @llvm.umin.i128(i128, i128)
declare i128 @llvm.abs.i128(i128, i1)
declare i128 @llvm.uadd.sat.i128(i128, i128)
declare i128 @llvm.ssub.sat.i128(i128, i128)

define void @show(i128 %v) {
  %lo = trunc i128 %v to i64
  %h = lshr i128 %v, 64
  %hi = trunc i128 %h to i64
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i64 %hi, i64 %lo)
  ret void
}

define void @flag(i1 %b) {
  %w = zext i1 %b to i32
  %r = call i32 (ptr, ...) @printf(ptr @fmt1, i32 %w)
  ret void
}

define void @arith(i128 %a, i128 %b) noinline {
  %add = add i128 %a, %b
  call void @show(i128 %add)
  %sub = sub i128 %a, %b
  call void @show(i128 %sub)
  %mul = mul i128 %a, %b
  call void @show(i128 %mul)
  %sdiv = sdiv i128 %a, %b
  call void @show(i128 %sdiv)
  %udiv = udiv i128 %a, %b
  call void @show(i128 %udiv)
  %srem = srem i128 %a, %b
  call void @show(i128 %srem)
  %urem = urem i128 %a, %b
  call void @show(i128 %urem)
  %and = and i128 %a, %b
  call void @show(i128 %and)
  %or = or i128 %a, %b
  call void @show(i128 %or)
  %xor = xor i128 %a, %b
  call void @show(i128 %xor)
  %amount = and i128 %b, 127
  %shl = shl i128 %a, %amount
  call void @show(i128 %shl)
  %lshr = lshr i128 %a, %amount
  call void @show(i128 %lshr)
  %ashr = ashr i128 %a, %amount
  call void @show(i128 %ashr)
  %shl64 = shl i128 %a, 64
  call void @show(i128 %shl64)
  %ashr100 = ashr i128 %a, 100
  call void @show(i128 %ashr100)
  %c1 = icmp slt i128 %a, %b
  call void @flag(i1 %c1)
  %c2 = icmp ult i128 %a, %b
  call void @flag(i1 %c2)
  %c3 = icmp eq i128 %a, %b
  call void @flag(i1 %c3)
  %c4 = icmp sge i128 %a, 18446744073709551616
  call void @flag(i1 %c4)
  %sel = select i1 %c1, i128 %a, i128 %b
  call void @show(i128 %sel)
  %sel2 = select i1 %c2, i128 %b, i128 %a
  call void @show(i128 %sel2)
  ret void
}

define void @casts(i128 %a) noinline {
  %t1 = trunc i128 %a to i1
  call void @flag(i1 %t1)
  %t24 = trunc i128 %a to i24
  %z24 = zext i24 %t24 to i128
  call void @show(i128 %z24)
  %s24 = sext i24 %t24 to i128
  call void @show(i128 %s24)
  %t63 = trunc i128 %a to i63
  %s63 = sext i63 %t63 to i128
  call void @show(i128 %s63)
  %t64 = trunc i128 %a to i64
  %s64 = sext i64 %t64 to i128
  call void @show(i128 %s64)
  %z64 = zext i64 %t64 to i128
  call void @show(i128 %z64)
  %t8 = trunc i128 %a to i8
  %s8 = sext i8 %t8 to i128
  call void @show(i128 %s8)
  %s1 = sext i1 %t1 to i128
  call void @show(i128 %s1)
  %p = inttoptr i128 %a to ptr
  %back = ptrtoint ptr %p to i128
  call void @show(i128 %back)
  ret void
}

define void @intrinsics(i128 %a, i128 %b) noinline {
  %o1 = call { i128, i1 } @llvm.uadd.with.overflow.i128(i128 %a, i128 %b)
  %o1v = extractvalue { i128, i1 } %o1, 0
  %o1f = extractvalue { i128, i1 } %o1, 1
  call void @show(i128 %o1v)
  call void @flag(i1 %o1f)
  %o2 = call { i128, i1 } @llvm.sadd.with.overflow.i128(i128 %a, i128 %b)
  %o2f = extractvalue { i128, i1 } %o2, 1
  call void @flag(i1 %o2f)
  %o3 = call { i128, i1 } @llvm.usub.with.overflow.i128(i128 %a, i128 %b)
  %o3f = extractvalue { i128, i1 } %o3, 1
  call void @flag(i1 %o3f)
  %o4 = call { i128, i1 } @llvm.ssub.with.overflow.i128(i128 %a, i128 %b)
  %o4f = extractvalue { i128, i1 } %o4, 1
  call void @flag(i1 %o4f)
  %o5 = call { i128, i1 } @llvm.umul.with.overflow.i128(i128 %a, i128 %b)
  %o5v = extractvalue { i128, i1 } %o5, 0
  %o5f = extractvalue { i128, i1 } %o5, 1
  call void @show(i128 %o5v)
  call void @flag(i1 %o5f)
  %pop = call i128 @llvm.ctpop.i128(i128 %a)
  call void @show(i128 %pop)
  %lz = call i128 @llvm.ctlz.i128(i128 %a, i1 false)
  call void @show(i128 %lz)
  %tz = call i128 @llvm.cttz.i128(i128 %a, i1 false)
  call void @show(i128 %tz)
  %bs = call i128 @llvm.bswap.i128(i128 %a)
  call void @show(i128 %bs)
  %br = call i128 @llvm.bitreverse.i128(i128 %a)
  call void @show(i128 %br)
  %fl = call i128 @llvm.fshl.i128(i128 %a, i128 %b, i128 70)
  call void @show(i128 %fl)
  %fr = call i128 @llvm.fshr.i128(i128 %a, i128 %b, i128 %b)
  call void @show(i128 %fr)
  %mx = call i128 @llvm.smax.i128(i128 %a, i128 %b)
  call void @show(i128 %mx)
  %mn = call i128 @llvm.umin.i128(i128 %a, i128 %b)
  call void @show(i128 %mn)
  %ab = call i128 @llvm.abs.i128(i128 %a, i1 false)
  call void @show(i128 %ab)
  %us = call i128 @llvm.uadd.sat.i128(i128 %a, i128 %b)
  call void @show(i128 %us)
  %ss = call i128 @llvm.ssub.sat.i128(i128 %a, i128 %b)
  call void @show(i128 %ss)
  ret void
}

; 64x64->128 multiplication, as clang emits it for hashes.
define i64 @mulhi(i64 %x, i64 %y) noinline {
  %a = zext i64 %x to i128
  %b = zext i64 %y to i128
  %p = mul i128 %a, %b
  %h = lshr i128 %p, 64
  %l = trunc i128 %p to i64
  %t = trunc i128 %h to i64
  %r = xor i64 %t, %l
  ret i64 %r
}

; A phi carrying i128 around a loop: the sum of squares 1..n.
define i128 @squares(i64 %n) noinline {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %next, %loop ]
  %acc = phi i128 [ 0, %entry ], [ %sum, %loop ]
  %w = zext i64 %i to i128
  %sq = mul i128 %w, 340282366920938463463374607431768211
  %sum = add i128 %acc, %sq
  %next = add i64 %i, 1
  %done = icmp ugt i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i128 %sum
}

define void @memory() noinline {
  %slot = alloca { i8, i128, i32 }
  %f1 = getelementptr { i8, i128, i32 }, ptr %slot, i32 0, i32 1
  %g = getelementptr { i8, i128, i32 }, ptr @layout, i32 0, i32 1
  %gv = load i128, ptr %g
  %inc = add i128 %gv, 3
  store i128 %inc, ptr %f1
  %l = load i128, ptr %f1
  call void @show(i128 %l)
  %off = ptrtoint ptr %f1 to i64
  %base = ptrtoint ptr %slot to i64
  %d = sub i64 %off, %base
  %d128 = zext i64 %d to i128
  call void @show(i128 %d128)
  %e = getelementptr [3 x i128], ptr @table, i64 0, i64 2
  %ev = load i128, ptr %e
  call void @show(i128 %ev)
  %e1 = getelementptr [3 x i128], ptr @table, i64 0, i64 1
  %ev1 = load i128, ptr %e1
  call void @show(i128 %ev1)
  %size = ptrtoint ptr getelementptr ({ i8, i128, i32 }, ptr null, i64 1) to i64
  %s128 = zext i64 %size to i128
  call void @show(i128 %s128)
  ret void
}

define i32 @main() {
  call void @arith(i128 123456789012345678901234567890, i128 -98765432109876543210)
  call void @arith(i128 -170141183460469231731687303715884105728, i128 -1)
  call void @arith(i128 340282366920938463463374607431768211455, i128 18446744073709551616)
  call void @arith(i128 u0x80000000000000000000000000000001, i128 65)
  call void @casts(i128 u0xFEDCBA98765432100123456789ABCDEF)
  call void @casts(i128 u0x00000000000000008000000000800001)
  call void @intrinsics(i128 123456789012345678901234567890, i128 -98765432109876543210)
  call void @intrinsics(i128 170141183460469231731687303715884105727, i128 1)
  call void @intrinsics(i128 18446744073709551615, i128 18446744073709551617)
  call void @intrinsics(i128 u0x10000000000000000, i128 u0x10000000000000000)
  call void @intrinsics(i128 -170141183460469231731687303715884105728, i128 2)
  %m = call i64 @mulhi(i64 -1, i64 -3)
  %m128 = zext i64 %m to i128
  call void @show(i128 %m128)
  %q = call i128 @squares(i64 1000)
  call void @show(i128 %q)
  call void @memory()
  ret i32 0
}
