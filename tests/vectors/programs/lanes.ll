; Lane-wise arithmetic, comparisons, selects and casts on every shape the lowering has: 128-bit
; vectors of each lane width, a narrower <2 x float>, a wider <8 x i32>, an odd <3 x i32> and
; <N x i1> masks, at edge values (INT_MIN / -1 avoided: it is undefined), printed lane by lane.

@.d = private constant [4 x i8] c"%d \00"
@.u = private constant [5 x i8] c"%lu \00"
@.g = private constant [6 x i8] c"%.9g \00"
@.nl = private constant [2 x i8] c"\0A\00"

declare i32 @printf(ptr, ...)

define void @nl() {
  call i32 (ptr, ...) @printf(ptr @.nl)
  ret void
}

define void @p4(<4 x i32> %v) {
  %a = extractelement <4 x i32> %v, i32 0
  %b = extractelement <4 x i32> %v, i32 1
  %c = extractelement <4 x i32> %v, i32 2
  %d = extractelement <4 x i32> %v, i32 3
  call i32 (ptr, ...) @printf(ptr @.d, i32 %a)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %b)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %c)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %d)
  call void @nl()
  ret void
}

define void @p8(<8 x i32> %v) {
  %lo = shufflevector <8 x i32> %v, <8 x i32> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %hi = shufflevector <8 x i32> %v, <8 x i32> poison, <4 x i32> <i32 4, i32 5, i32 6, i32 7>
  call void @p4(<4 x i32> %lo)
  call void @p4(<4 x i32> %hi)
  ret void
}

define void @p2l(<2 x i64> %v) {
  %a = extractelement <2 x i64> %v, i64 0
  %b = extractelement <2 x i64> %v, i64 1
  call i32 (ptr, ...) @printf(ptr @.u, i64 %a)
  call i32 (ptr, ...) @printf(ptr @.u, i64 %b)
  call void @nl()
  ret void
}

define void @pf4(<4 x float> %v) {
  %w = fpext <4 x float> %v to <4 x double>
  %a = extractelement <4 x double> %w, i32 0
  %b = extractelement <4 x double> %w, i32 1
  %c = extractelement <4 x double> %w, i32 2
  %d = extractelement <4 x double> %w, i32 3
  call i32 (ptr, ...) @printf(ptr @.g, double %a)
  call i32 (ptr, ...) @printf(ptr @.g, double %b)
  call i32 (ptr, ...) @printf(ptr @.g, double %c)
  call i32 (ptr, ...) @printf(ptr @.g, double %d)
  call void @nl()
  ret void
}

define void @pd2(<2 x double> %v) {
  %a = extractelement <2 x double> %v, i32 0
  %b = extractelement <2 x double> %v, i32 1
  call i32 (ptr, ...) @printf(ptr @.g, double %a)
  call i32 (ptr, ...) @printf(ptr @.g, double %b)
  call void @nl()
  ret void
}

; A mask as the integer of its bits (lane 0 in bit 0), through memory's packed layout.
define void @pmask(<8 x i1> %m) {
  %bits = bitcast <8 x i1> %m to i8
  %w = zext i8 %bits to i32
  call i32 (ptr, ...) @printf(ptr @.d, i32 %w)
  call void @nl()
  ret void
}

define void @ints(<4 x i32> %x, <4 x i32> %y) {
  %add = add <4 x i32> %x, %y
  call void @p4(<4 x i32> %add)
  %sub = sub nsw <4 x i32> %x, %y
  call void @p4(<4 x i32> %sub)
  %mul = mul <4 x i32> %x, %y
  call void @p4(<4 x i32> %mul)
  %sdiv = sdiv <4 x i32> %x, %y
  call void @p4(<4 x i32> %sdiv)
  %udiv = udiv <4 x i32> %x, %y
  call void @p4(<4 x i32> %udiv)
  %srem = srem <4 x i32> %x, %y
  call void @p4(<4 x i32> %srem)
  %urem = urem <4 x i32> %x, %y
  call void @p4(<4 x i32> %urem)
  %and = and <4 x i32> %x, %y
  %or = or <4 x i32> %x, %y
  %xor = xor <4 x i32> %and, %or
  call void @p4(<4 x i32> %xor)
  %shl = shl <4 x i32> %x, <i32 0, i32 1, i32 31, i32 4>
  call void @p4(<4 x i32> %shl)
  %lshr = lshr <4 x i32> %x, <i32 0, i32 1, i32 31, i32 4>
  call void @p4(<4 x i32> %lshr)
  %ashr = ashr <4 x i32> %x, <i32 0, i32 1, i32 31, i32 4>
  call void @p4(<4 x i32> %ashr)
  %neg = sub <4 x i32> zeroinitializer, %x
  call void @p4(<4 x i32> %neg)
  ret void
}

define void @compares(<4 x i32> %x, <4 x i32> %y) {
  %lt = icmp slt <4 x i32> %x, %y
  %ult = icmp ult <4 x i32> %x, %y
  %eq = icmp eq <4 x i32> %x, %x
  %both = shufflevector <4 x i1> %lt, <4 x i1> %ult, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  call void @pmask(<8 x i1> %both)
  %min = select <4 x i1> %lt, <4 x i32> %x, <4 x i32> %y
  call void @p4(<4 x i32> %min)
  %umin = select <4 x i1> %ult, <4 x i32> %x, <4 x i32> %y
  call void @p4(<4 x i32> %umin)
  %sx = sext <4 x i1> %eq to <4 x i32>
  call void @p4(<4 x i32> %sx)
  %zx = zext <4 x i1> %lt to <4 x i32>
  call void @p4(<4 x i32> %zx)
  %any = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %lt)
  %all = call i1 @llvm.vector.reduce.and.v4i1(<4 x i1> %lt)
  %scalar = select i1 %any, <4 x i32> %x, <4 x i32> %y
  call void @p4(<4 x i32> %scalar)
  %a32 = zext i1 %all to i32
  call i32 (ptr, ...) @printf(ptr @.d, i32 %a32)
  call void @nl()
  ret void
}

define void @narrow(<16 x i8> %b, <8 x i16> %h) {
  %b2 = add <16 x i8> %b, %b
  %bm = mul <16 x i8> %b2, splat (i8 13)
  %bs = ashr <16 x i8> %bm, splat (i8 2)
  %bw = sext <16 x i8> %bs to <16 x i32>
  %b0 = shufflevector <16 x i32> %bw, <16 x i32> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 15>
  call void @p8(<8 x i32> %b0)
  %hz = zext <8 x i16> %h to <8 x i32>
  %hs = sext <8 x i16> %h to <8 x i32>
  %hsum = add <8 x i32> %hz, %hs
  call void @p8(<8 x i32> %hsum)
  %tr = trunc <8 x i32> %hsum to <8 x i16>
  %hm = call <8 x i16> @llvm.smax.v8i16(<8 x i16> %tr, <8 x i16> %h)
  %hw = sext <8 x i16> %hm to <8 x i32>
  call void @p8(<8 x i32> %hw)
  %bu = call <16 x i8> @llvm.umin.v16i8(<16 x i8> %b, <16 x i8> splat (i8 100))
  %r = call i8 @llvm.vector.reduce.add.v16i8(<16 x i8> %bu)
  %rw = zext i8 %r to i32
  %mx = call i8 @llvm.vector.reduce.smax.v16i8(<16 x i8> %b)
  %mxw = sext i8 %mx to i32
  %mn = call i8 @llvm.vector.reduce.umin.v16i8(<16 x i8> %b)
  %mnw = zext i8 %mn to i32
  %rv = insertelement <4 x i32> poison, i32 %rw, i32 0
  %rv1 = insertelement <4 x i32> %rv, i32 %mxw, i32 1
  %rv2 = insertelement <4 x i32> %rv1, i32 %mnw, i32 2
  %rv3 = insertelement <4 x i32> %rv2, i32 -1, i32 3
  call void @p4(<4 x i32> %rv3)
  ret void
}

define void @wide(<2 x i64> %l, <3 x i32> %t) {
  %m = mul <2 x i64> %l, <i64 -3, i64 1099511627776>
  call void @p2l(<2 x i64> %m)
  %sh = lshr <2 x i64> %l, <i64 63, i64 1>
  call void @p2l(<2 x i64> %sh)
  %t2 = mul <3 x i32> %t, <i32 7, i32 -7, i32 65536>
  %t4 = shufflevector <3 x i32> %t2, <3 x i32> %t, <4 x i32> <i32 0, i32 1, i32 2, i32 5>
  call void @p4(<4 x i32> %t4)
  %s = call i32 @llvm.vector.reduce.add.v3i32(<3 x i32> %t2)
  %x = call i32 @llvm.vector.reduce.xor.v3i32(<3 x i32> %t)
  %umax = call i32 @llvm.vector.reduce.umax.v3i32(<3 x i32> %t)
  %smin = call i32 @llvm.vector.reduce.smin.v3i32(<3 x i32> %t)
  %v0 = insertelement <4 x i32> poison, i32 %s, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %x, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %umax, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %smin, i32 3
  call void @p4(<4 x i32> %v3)
  %l8 = call i64 @llvm.vector.reduce.mul.v2i64(<2 x i64> %l)
  %lv = insertelement <2 x i64> %l, i64 %l8, i32 1
  call void @p2l(<2 x i64> %lv)
  ret void
}

define void @floats(<4 x float> %x, <4 x float> %y, <2 x double> %d) {
  %add = fadd <4 x float> %x, %y
  call void @pf4(<4 x float> %add)
  %mul = fmul <4 x float> %x, %y
  call void @pf4(<4 x float> %mul)
  %div = fdiv <4 x float> %x, %y
  call void @pf4(<4 x float> %div)
  %rem = frem <4 x float> %x, %y
  call void @pf4(<4 x float> %rem)
  %neg = fneg <4 x float> %x
  %abs = call <4 x float> @llvm.fabs.v4f32(<4 x float> %neg)
  call void @pf4(<4 x float> %abs)
  %sq = call <4 x float> @llvm.sqrt.v4f32(<4 x float> %abs)
  call void @pf4(<4 x float> %sq)
  %fma = call <4 x float> @llvm.fma.v4f32(<4 x float> %x, <4 x float> %y, <4 x float> splat (float 0x3FB99999A0000000))
  call void @pf4(<4 x float> %fma)
  %olt = fcmp olt <4 x float> %x, %y
  %uno = fcmp uno <4 x float> %x, %y
  %m = shufflevector <4 x i1> %olt, <4 x i1> %uno, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  call void @pmask(<8 x i1> %m)
  %sel = select <4 x i1> %olt, <4 x float> %x, <4 x float> %y
  call void @pf4(<4 x float> %sel)
  %i = fptosi <4 x float> %sel to <4 x i32>
  call void @p4(<4 x i32> %i)
  %back = sitofp <4 x i32> %i to <4 x float>
  %u = uitofp <4 x i32> %i to <4 x float>
  %bu = fadd <4 x float> %back, %u
  call void @pf4(<4 x float> %bu)
  %dd = fmul <2 x double> %d, <double 3.0, double -0.5>
  call void @pd2(<2 x double> %dd)
  %narrowed = fptrunc <2 x double> %dd to <2 x float>
  %widened = fpext <2 x float> %narrowed to <2 x double>
  call void @pd2(<2 x double> %widened)
  %sum = call float @llvm.vector.reduce.fadd.v4f32(float -0.0, <4 x float> %mul)
  %prod = call double @llvm.vector.reduce.fmul.v2f64(double 2.0, <2 x double> %d)
  %fmax = call float @llvm.vector.reduce.fmax.v4f32(<4 x float> %x)
  %fmin = call float @llvm.vector.reduce.fmin.v4f32(<4 x float> %y)
  %r0 = insertelement <4 x float> poison, float %sum, i32 0
  %pf = fptrunc double %prod to float
  %r1 = insertelement <4 x float> %r0, float %pf, i32 1
  %r2 = insertelement <4 x float> %r1, float %fmax, i32 2
  %r3 = insertelement <4 x float> %r2, float %fmin, i32 3
  call void @pf4(<4 x float> %r3)
  ret void
}

define i32 @main() {
  call void @ints(<4 x i32> <i32 7, i32 -2147483648, i32 2147483647, i32 -100>, <4 x i32> <i32 -3, i32 7, i32 2, i32 -9>)
  call void @compares(<4 x i32> <i32 7, i32 -2147483648, i32 2147483647, i32 -100>, <4 x i32> <i32 -3, i32 7, i32 2, i32 -100>)
  call void @narrow(<16 x i8> <i8 0, i8 1, i8 -1, i8 127, i8 -128, i8 50, i8 99, i8 100, i8 101, i8 -7, i8 8, i8 9, i8 10, i8 11, i8 12, i8 -13>, <8 x i16> <i16 0, i16 -1, i16 32767, i16 -32768, i16 300, i16 -300, i16 7, i16 1>)
  call void @wide(<2 x i64> <i64 -9223372036854775807, i64 81985529216486895>, <3 x i32> <i32 123456, i32 -5, i32 65537>)
  call void @floats(<4 x float> <float 1.5, float -0.0, float 0x7FF0000000000000, float 0x7FF8000000000000>, <4 x float> <float 0.25, float -3.0, float 2.0, float 1.0>, <2 x double> <double 1.0e300, double -2.5>)
  ret i32 0
}

declare <8 x i16> @llvm.smax.v8i16(<8 x i16>, <8 x i16>)
declare <16 x i8> @llvm.umin.v16i8(<16 x i8>, <16 x i8>)
declare i8 @llvm.vector.reduce.add.v16i8(<16 x i8>)
declare i8 @llvm.vector.reduce.smax.v16i8(<16 x i8>)
declare i8 @llvm.vector.reduce.umin.v16i8(<16 x i8>)
declare i1 @llvm.vector.reduce.or.v4i1(<4 x i1>)
declare i1 @llvm.vector.reduce.and.v4i1(<4 x i1>)
declare i32 @llvm.vector.reduce.add.v3i32(<3 x i32>)
declare i32 @llvm.vector.reduce.xor.v3i32(<3 x i32>)
declare i32 @llvm.vector.reduce.umax.v3i32(<3 x i32>)
declare i32 @llvm.vector.reduce.smin.v3i32(<3 x i32>)
declare i64 @llvm.vector.reduce.mul.v2i64(<2 x i64>)
declare <4 x float> @llvm.fabs.v4f32(<4 x float>)
declare <4 x float> @llvm.sqrt.v4f32(<4 x float>)
declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare double @llvm.vector.reduce.fmul.v2f64(double, <2 x double>)
declare float @llvm.vector.reduce.fmax.v4f32(<4 x float>)
declare float @llvm.vector.reduce.fmin.v4f32(<4 x float>)
