; Intrinsics clang-19 emits for ordinary C, fastcc internal functions, printf with double
; arguments (x86-64's %al), debug and alias-scope annotations with metadata operands, and a
; stack map of intrinsic results.
source_filename = "intrinsics_varargs_floats.ll"

@fmt_ints = private unnamed_addr constant [32 x i8] c"%d %d %d %d %u %u %lld %lld %d\0A\00"
@fmt_floats = private unnamed_addr constant [33 x i8] c"%f %f %f %f %.3f %g %g %g %g %g\0A\00"
@fmt_mem = private unnamed_addr constant [10 x i8] c"%s %d %d\0A\00"
@src = private unnamed_addr constant [12 x i8] c"hello world\00"

declare i32 @printf(ptr, ...)
declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i16 @llvm.bswap.i16(i16)
declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.bitreverse.i32(i32)
declare i64 @llvm.abs.i64(i64, i1)
declare i64 @llvm.smax.i64(i64, i64)
declare i8 @llvm.umin.i8(i8, i8)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i64 @llvm.expect.i64(i64, i64)
declare double @llvm.fabs.f64(double)
declare double @llvm.sqrt.f64(double)
declare double @llvm.floor.f64(double)
declare float @llvm.ceil.f32(float)
declare double @llvm.trunc.f64(double)
declare double @llvm.round.f64(double)
declare double @llvm.rint.f64(double)
declare double @llvm.copysign.f64(double, double)
declare double @llvm.minnum.f64(double, double)
declare double @llvm.maxnum.f64(double, double)
declare double @llvm.fmuladd.f64(double, double, double)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @llvm.assume(i1)
declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.experimental.noalias.scope.decl(metadata)
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare i8 @llvm.sadd.sat.i8(i8, i8)
declare i8 @llvm.uadd.sat.i8(i8, i8)
declare i32 @llvm.ssub.sat.i32(i32, i32)
declare i16 @llvm.usub.sat.i16(i16, i16)
declare i64 @llvm.sadd.sat.i64(i64, i64)
declare i64 @llvm.objectsize.i64.p0(ptr, i1, i1, i1)
declare i1 @llvm.is.constant.i32(i32)
declare ptr @llvm.ptrmask.p0.i64(ptr, i64)
declare void @llvm.prefetch.p0(ptr, i32, i32, i32)

@fmt_sat = private unnamed_addr constant [37 x i8] c"%d %d %d %d %lld %lld %lld %d %d %d\0A\00"

define internal fastcc void @saturating(i8 %a, i32 %b, ptr %p) {
entry:
  call void @llvm.prefetch.p0(ptr %p, i32 0, i32 3, i32 1)
  %s1 = call i8 @llvm.sadd.sat.i8(i8 %a, i8 100)
  %s2 = call i8 @llvm.uadd.sat.i8(i8 %a, i8 200)
  %s3 = call i32 @llvm.ssub.sat.i32(i32 %b, i32 2147483647)
  %s4 = call i16 @llvm.usub.sat.i16(i16 5, i16 9)
  %s5 = call i64 @llvm.sadd.sat.i64(i64 9223372036854775800, i64 100)
  %o1 = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 false, i1 true, i1 false)
  %o2 = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 true, i1 true, i1 false)
  %c1 = call i1 @llvm.is.constant.i32(i32 7)
  %c2 = call i1 @llvm.is.constant.i32(i32 %b)
  %m = call ptr @llvm.ptrmask.p0.i64(ptr %p, i64 -16)
  %mi = ptrtoint ptr %m to i64
  %low = and i64 %mi, 15
  %low32 = trunc i64 %low to i32
  %e1 = sext i8 %s1 to i32
  %e2 = zext i8 %s2 to i32
  %e4 = zext i16 %s4 to i32
  %ec1 = zext i1 %c1 to i32
  %ec2 = zext i1 %c2 to i32
  %r = call i32 (ptr, ...) @printf(ptr @fmt_sat, i32 %e1, i32 %e2, i32 %s3, i32 %e4, i64 %s5, i64 %o1, i64 %o2, i32 %ec1, i32 %ec2, i32 %low32)
  ret void
}

define internal fastcc i32 @bits(i32 %x, i64 %y) {
entry:
  call void @llvm.dbg.value(metadata i32 %x, metadata !10, metadata !DIExpression()), !dbg !12
  %pop = call i32 @llvm.ctpop.i32(i32 %x)
  %lz = call i64 @llvm.ctlz.i64(i64 %y, i1 false)
  %lz32 = trunc i64 %lz to i32
  %tz = call i32 @llvm.cttz.i32(i32 %x, i1 true)
  %sw16 = call i16 @llvm.bswap.i16(i16 4660)
  %sw = zext i16 %sw16 to i32
  %bs = call i32 @llvm.bswap.i32(i32 %x)
  %br = call i32 @llvm.bitreverse.i32(i32 %x)
  %neg = sub i64 0, %y
  %abs = call i64 @llvm.abs.i64(i64 %neg, i1 false)
  %max = call i64 @llvm.smax.i64(i64 %neg, i64 -5)
  %m8 = call i8 @llvm.umin.i8(i8 200, i8 100)
  %m = zext i8 %m8 to i32
  %rot = call i32 @llvm.fshl.i32(i32 %x, i32 %x, i32 36)
  %fr = call i32 @llvm.fshr.i32(i32 %x, i32 %tz, i32 7)
  ; Poison at zero (%y is not): x86-64 counts it with a stop bit or'ed in.
  %lzp = call i64 @llvm.ctlz.i64(i64 %y, i1 true)
  %lzp32 = trunc i64 %lzp to i32
  %rotfr = add i32 %rot, %fr
  %sum = add i32 %rotfr, %lzp32
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i32 %pop, i64 %lz, i32 %bs, i64 %abs, i32 %sum)
  %r = call i32 (ptr, ...) @printf(ptr @fmt_ints, i32 %pop, i32 %lz32, i32 %tz, i32 %sw, i32 %bs, i32 %br, i64 %abs, i64 %max, i32 %m)
  %e = call i64 @llvm.expect.i64(i64 %y, i64 1)
  %e32 = trunc i64 %e to i32
  %out = add i32 %sum, %e32
  ret i32 %out
}

define internal fastcc void @floats(double %x) {
entry:
  %nx = fneg double %x
  %a = call double @llvm.fabs.f64(double %nx)
  %s = call double @llvm.sqrt.f64(double %a)
  %f = call double @llvm.floor.f64(double %nx)
  %xf = fptrunc double %x to float
  %c = call float @llvm.ceil.f32(float %xf)
  %cd = fpext float %c to double
  %t = call double @llvm.trunc.f64(double %nx)
  %r = call double @llvm.round.f64(double %nx)
  %ri = call double @llvm.rint.f64(double %x)
  %cs = call double @llvm.copysign.f64(double 3.0, double %nx)
  %nan = fdiv double 0.0, 0.0
  %mn = call double @llvm.minnum.f64(double %nan, double %x)
  %mx = call double @llvm.maxnum.f64(double %x, double 100.0)
  %ma = call double @llvm.fmuladd.f64(double %x, double 3.0, double 0.5)
  ; A negated addend: x * x - x.
  %mb = call double @llvm.fmuladd.f64(double %x, double %x, double %nx)
  %p = call i32 (ptr, ...) @printf(ptr @fmt_floats, double %a, double %s, double %f, double %cd, double %t, double %r, double %ri, double %cs, double %mn, double %mx)
  %q = call i32 (ptr, ...) @printf(ptr @fmt_floats, double %ma, double %mb, double 0.25, double 0.5, double 1.0, double 2.0, double 3.0, double 4.0, double 5.0, double 6.0)
  ret void
}

define i32 @main() {
entry:
  %buf = alloca [32 x i8], align 16
  %big = alloca [100 x i8], align 16
  call void @llvm.lifetime.start.p0(i64 32, ptr %buf)
  call void @llvm.experimental.noalias.scope.decl(metadata !13)
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 32, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %buf, ptr @src, i64 12, i1 false)
  %dst = getelementptr inbounds i8, ptr %buf, i64 2
  call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %buf, i64 5, i1 false)
  call void @llvm.memset.p0.i64(ptr %big, i8 7, i64 100, i1 false)
  %last = getelementptr inbounds i8, ptr %big, i64 99
  %l = load i8, ptr %last
  %l32 = zext i8 %l to i32
  %cmp = icmp ne i32 %l32, 0
  call void @llvm.assume(i1 %cmp)
  %p = call i32 (ptr, ...) @printf(ptr @fmt_mem, ptr %buf, i32 %l32, i32 12)
  call void @llvm.lifetime.end.p0(i64 32, ptr %buf)
  %b = call fastcc i32 @bits(i32 61680, i64 1234567)
  call fastcc void @floats(double 2.5)
  call fastcc void @floats(double -7.75)
  call fastcc void @saturating(i8 60, i32 -5, ptr %buf)
  call fastcc void @saturating(i8 -100, i32 2, ptr %big)
  %st = and i32 %b, 63
  ret i32 %st
}

!llvm.dbg.cu = !{}
!10 = !DILocalVariable(name: "x", scope: !11)
!11 = distinct !DISubprogram(name: "bits")
!12 = !DILocation(line: 1, scope: !11)
!13 = !{!14}
!14 = distinct !{!14, !15, !"scope"}
!15 = distinct !{!15, !"domain"}
