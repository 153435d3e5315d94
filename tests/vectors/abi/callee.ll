; The callee half of a two-object program (tests/programs/vectors.rs links it with caller.ll, each
; built by patchmap or llc-19): vectors cross the C ABI as LLVM legalises them on each target:
; 128-bit ones in XMM/Q registers, 64-bit ones (<2 x float>, clang's struct of two floats) in an
; XMM register's low half or a D register, <8 x i32> split in two registers, narrow vectors widened
; (x86-64) or with promoted lanes (AArch64), masks promoted, and past the eight vector registers on
; the stack, between scalars; results in the first registers.
declare i32 @printf(ptr, ...)
@fmt = private constant [6 x i8] c"%llx\0A\00"

define internal void @p(i64 %v) noinline {
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret void
}

define internal void @p4(<4 x i32> %v) noinline {
  %w = bitcast <4 x i32> %v to <2 x i64>
  %a = extractelement <2 x i64> %w, i32 0
  %b = extractelement <2 x i64> %w, i32 1
  call void @p(i64 %a)
  call void @p(i64 %b)
  ret void
}

define <4 x i32> @sum4(<4 x i32> %a, <4 x i32> %b) noinline {
  %s = add <4 x i32> %a, %b
  ret <4 x i32> %s
}

define <2 x float> @swap2(<2 x float> %v, float %k) noinline {
  %s = shufflevector <2 x float> %v, <2 x float> poison, <2 x i32> <i32 1, i32 0>
  %kv = insertelement <2 x float> poison, float %k, i32 0
  %ks = shufflevector <2 x float> %kv, <2 x float> poison, <2 x i32> zeroinitializer
  %r = fmul <2 x float> %s, %ks
  ret <2 x float> %r
}

define <8 x i32> @wide(i32 %x, <8 x i32> %v, <2 x double> %d) noinline {
  %xv = insertelement <8 x i32> poison, i32 %x, i32 0
  %xs = shufflevector <8 x i32> %xv, <8 x i32> poison, <8 x i32> zeroinitializer
  %r = mul <8 x i32> %v, %xs
  %d0 = extractelement <2 x double> %d, i32 1
  %db = bitcast double %d0 to i64
  call void @p(i64 %db)
  ret <8 x i32> %r
}

define <4 x i8> @narrow(<4 x i8> %a, <2 x i16> %b, <8 x i8> %c) noinline {
  %bw = bitcast <2 x i16> %b to i32
  %bx = zext i32 %bw to i64
  call void @p(i64 %bx)
  %cw = bitcast <8 x i8> %c to i64
  call void @p(i64 %cw)
  %r = add <4 x i8> %a, <i8 1, i8 2, i8 3, i8 -1>
  ret <4 x i8> %r
}

define <4 x i1> @masks(<4 x i1> %m, <8 x i1> %n, <16 x i1> %o) noinline {
  %nb = bitcast <8 x i1> %n to i8
  %nw = zext i8 %nb to i64
  call void @p(i64 %nw)
  %ob = bitcast <16 x i1> %o to i16
  %ow = zext i16 %ob to i64
  call void @p(i64 %ow)
  %r = xor <4 x i1> %m, <i1 true, i1 false, i1 false, i1 true>
  ret <4 x i1> %r
}

; Ten vectors with scalars among them: the ninth and tenth go on the stack.
define <2 x i64> @many(<4 x i32> %v0, <4 x i32> %v1, i64 %i, <4 x i32> %v2, <4 x i32> %v3, <4 x i32> %v4, double %f, <4 x i32> %v5, <4 x i32> %v6, <4 x i32> %v7, <4 x i32> %v8, <2 x i64> %v9) noinline {
  call void @p(i64 %i)
  %fb = bitcast double %f to i64
  call void @p(i64 %fb)
  call void @p4(<4 x i32> %v0)
  call void @p4(<4 x i32> %v3)
  call void @p4(<4 x i32> %v7)
  call void @p4(<4 x i32> %v8)
  %x = bitcast <4 x i32> %v8 to <2 x i64>
  %r = add <2 x i64> %x, %v9
  ret <2 x i64> %r
}

; Seven doubles leave one vector register: the first half of the <8 x i32> goes there, the second
; on the stack (LLVM passes the parts of a split vector one by one).
define i32 @straddle(double %a, double %b, double %c, double %d, double %e, double %f, double %g, <8 x i32> %v) noinline {
  %x = extractelement <8 x i32> %v, i32 0
  %y = extractelement <8 x i32> %v, i32 7
  %m = mul i32 %y, 1000
  %s = add i32 %x, %m
  %gi = fptosi double %g to i32
  %r = add i32 %s, %gi
  ret i32 %r
}
