; The caller half of the two-object program of callee.ll: prints what each call returns.
declare i32 @printf(ptr, ...)
@fmt = private constant [6 x i8] c"%llx\0A\00"

declare <4 x i32> @sum4(<4 x i32>, <4 x i32>)
declare <2 x float> @swap2(<2 x float>, float)
declare <8 x i32> @wide(i32, <8 x i32>, <2 x double>)
declare <4 x i8> @narrow(<4 x i8>, <2 x i16>, <8 x i8>)
declare <4 x i1> @masks(<4 x i1>, <8 x i1>, <16 x i1>)
declare i32 @straddle(double, double, double, double, double, double, double, <8 x i32>)
declare <2 x i64> @many(<4 x i32>, <4 x i32>, i64, <4 x i32>, <4 x i32>, <4 x i32>, double, <4 x i32>, <4 x i32>, <4 x i32>, <4 x i32>, <2 x i64>)

define internal void @p(i64 %v) noinline {
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret void
}

define i32 @main() {
  %s = call <4 x i32> @sum4(<4 x i32> <i32 1, i32 -1, i32 2147483647, i32 16>, <4 x i32> <i32 2, i32 1, i32 1, i32 4096>)
  %s64 = bitcast <4 x i32> %s to <2 x i64>
  %s0 = extractelement <2 x i64> %s64, i32 0
  %s1 = extractelement <2 x i64> %s64, i32 1
  call void @p(i64 %s0)
  call void @p(i64 %s1)
  %w = call <2 x float> @swap2(<2 x float> <float 1.5, float -2.0>, float 3.0)
  %wb = bitcast <2 x float> %w to i64
  call void @p(i64 %wb)
  %v = call <8 x i32> @wide(i32 -3, <8 x i32> <i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 -8>, <2 x double> <double 1.0, double -2.5>)
  %v2 = bitcast <8 x i32> %v to <4 x i64>
  %v20 = extractelement <4 x i64> %v2, i32 0
  %v23 = extractelement <4 x i64> %v2, i32 3
  call void @p(i64 %v20)
  call void @p(i64 %v23)
  %n = call <4 x i8> @narrow(<4 x i8> <i8 10, i8 20, i8 30, i8 0>, <2 x i16> <i16 -2, i16 770>, <8 x i8> <i8 1, i8 2, i8 3, i8 4, i8 5, i8 6, i8 7, i8 -128>)
  %nb = bitcast <4 x i8> %n to i32
  %nw = zext i32 %nb to i64
  call void @p(i64 %nw)
  %m = call <4 x i1> @masks(<4 x i1> <i1 true, i1 true, i1 false, i1 false>, <8 x i1> <i1 1, i1 0, i1 1, i1 1, i1 0, i1 0, i1 0, i1 1>, <16 x i1> <i1 1, i1 0, i1 0, i1 0, i1 0, i1 0, i1 0, i1 0, i1 0, i1 1, i1 1, i1 0, i1 0, i1 0, i1 0, i1 1>)
  %mb = bitcast <4 x i1> %m to i4
  %mw = zext i4 %mb to i64
  call void @p(i64 %mw)
  %y = call <2 x i64> @many(<4 x i32> <i32 1, i32 1, i32 1, i32 1>, <4 x i32> zeroinitializer, i64 99, <4 x i32> zeroinitializer, <4 x i32> <i32 3, i32 3, i32 3, i32 -3>, <4 x i32> zeroinitializer, double 2.0, <4 x i32> zeroinitializer, <4 x i32> zeroinitializer, <4 x i32> <i32 7, i32 7, i32 7, i32 7>, <4 x i32> <i32 8, i32 9, i32 10, i32 11>, <2 x i64> <i64 4294967296, i64 -1>)
  %y0 = extractelement <2 x i64> %y, i32 0
  %y1 = extractelement <2 x i64> %y, i32 1
  call void @p(i64 %y0)
  call void @p(i64 %y1)
  %st = call i32 @straddle(double 1.0, double 2.0, double 3.0, double 4.0, double 5.0, double 6.0, double 7.0, <8 x i32> <i32 11, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 42>)
  %stw = zext i32 %st to i64
  call void @p(i64 %stw)
  ret i32 0
}
