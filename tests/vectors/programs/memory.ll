; Vectors in memory and across blocks: loads and stores at LLVM's layout (<3 x i32> touches 12
; bytes, <N x i1> one bit a lane), bitcasts through it, run-time lane indices, phis of vectors in a
; loop, freeze, a getelementptr into a vector, and a struct holding a <2 x float> (clang's return of
; a struct of three floats on x86-64).

@.d = private constant [4 x i8] c"%d \00"
@.x = private constant [6 x i8] c"%llx \00"
@.g = private constant [6 x i8] c"%.9g \00"
@.nl = private constant [2 x i8] c"\0A\00"
@bytes = global [32 x i8] zeroinitializer, align 16

declare i32 @printf(ptr, ...)

define void @dump() {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr i8, ptr @bytes, i64 %i
  %b = load i8, ptr %p
  %w = zext i8 %b to i32
  call i32 (ptr, ...) @printf(ptr @.d, i32 %w)
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 20
  br i1 %done, label %out, label %loop
out:
  call i32 (ptr, ...) @printf(ptr @.nl)
  call void @llvm.memset.p0.i64(ptr @bytes, i8 -1, i64 32, i1 false)
  ret void
}

define void @layouts() {
  store <3 x i32> <i32 1, i32 -2, i32 258>, ptr @bytes, align 4
  call void @dump()
  %m = icmp sgt <10 x i32> <i32 1, i32 -1, i32 1, i32 1, i32 -1, i32 -1, i32 -1, i32 1, i32 1, i32 -1>, zeroinitializer
  store <10 x i1> %m, ptr @bytes, align 1
  call void @dump()
  store <4 x i16> <i16 -1, i16 2, i16 3, i16 -32768>, ptr @bytes, align 2
  %q = getelementptr inbounds i8, ptr @bytes, i64 9
  store <2 x double> <double 1.5, double -0.0>, ptr %q, align 1
  call void @dump()
  store <4 x i8> <i8 1, i8 2, i8 3, i8 4>, ptr @bytes, align 4
  %l = load <3 x i32>, ptr @bytes, align 4
  %l0 = extractelement <3 x i32> %l, i32 0
  %l2 = extractelement <3 x i32> %l, i32 2
  call i32 (ptr, ...) @printf(ptr @.d, i32 %l0)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %l2)
  %bits = load <16 x i1>, ptr @bytes
  %b2 = extractelement <16 x i1> %bits, i32 1
  %b9 = extractelement <16 x i1> %bits, i32 9
  %b2w = zext i1 %b2 to i32
  %b9w = zext i1 %b9 to i32
  call i32 (ptr, ...) @printf(ptr @.d, i32 %b2w)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %b9w)
  call i32 (ptr, ...) @printf(ptr @.nl)
  ret void
}

define void @bitcasts(i64 %x) {
  %v = bitcast i64 %x to <2 x i32>
  %s = shufflevector <2 x i32> %v, <2 x i32> poison, <2 x i32> <i32 1, i32 0>
  %back = bitcast <2 x i32> %s to i64
  call i32 (ptr, ...) @printf(ptr @.x, i64 %back)
  %b = bitcast i64 %x to <64 x i1>
  %c = shufflevector <64 x i1> %b, <64 x i1> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 60, i32 61, i32 62, i32 63, i32 8, i32 8, i32 8, i32 8, i32 poison, i32 poison, i32 33, i32 32>
  %ci = bitcast <16 x i1> %c to i16
  %cw = zext i16 %ci to i64
  call i32 (ptr, ...) @printf(ptr @.x, i64 %cw)
  %f = bitcast i64 %x to <2 x float>
  %fd = fpext <2 x float> %f to <2 x double>
  %f0 = extractelement <2 x double> %fd, i32 0
  call i32 (ptr, ...) @printf(ptr @.g, double %f0)
  %w = bitcast <2 x i64> <i64 -1, i64 81985529216486895> to <8 x i16>
  %h = extractelement <8 x i16> %w, i32 5
  %hw = zext i16 %h to i64
  call i32 (ptr, ...) @printf(ptr @.x, i64 %hw)
  %d = bitcast <4 x float> <float 1.0, float 2.0, float -0.0, float 0x7FF0000000000000> to <2 x double>
  %dbits = bitcast <2 x double> %d to <2 x i64>
  %lo = extractelement <2 x i64> %dbits, i32 0
  %hi = extractelement <2 x i64> %dbits, i32 1
  call i32 (ptr, ...) @printf(ptr @.x, i64 %lo)
  call i32 (ptr, ...) @printf(ptr @.x, i64 %hi)
  call i32 (ptr, ...) @printf(ptr @.nl)
  ret void
}

define i32 @lanes_at(<8 x i32> %v, i32 %i, i64 %j) {
  %a = extractelement <8 x i32> %v, i32 %i
  %u = insertelement <8 x i32> %v, i32 %a, i64 %j
  %f = freeze <8 x i32> %u
  %r = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> %f)
  %x = call i32 @llvm.vector.reduce.xor.v8i32(<8 x i32> %f)
  %m = mul i32 %r, 1000
  %s = add i32 %m, %x
  ret i32 %s
}

define void @loop(i32 %n) {
entry:
  br label %body
body:
  %k = phi i32 [ 0, %entry ], [ %k1, %body ]
  %acc = phi <4 x i32> [ <i32 1, i32 2, i32 3, i32 4>, %entry ], [ %rot, %body ]
  %fa = phi <2 x double> [ zeroinitializer, %entry ], [ %fa1, %body ]
  %sq = mul <4 x i32> %acc, %acc
  %mix = add <4 x i32> %sq, splat (i32 7)
  %rot = shufflevector <4 x i32> %mix, <4 x i32> %acc, <4 x i32> <i32 3, i32 4, i32 1, i32 6>
  %kd = sitofp i32 %k to double
  %kv = insertelement <2 x double> <double 0.5, double poison>, double %kd, i32 1
  %fa1 = fadd <2 x double> %fa, %kv
  %k1 = add i32 %k, 1
  %again = icmp slt i32 %k1, %n
  br i1 %again, label %body, label %done
done:
  %a0 = extractelement <4 x i32> %rot, i32 0
  %a1 = extractelement <4 x i32> %rot, i32 1
  %a2 = extractelement <4 x i32> %rot, i32 2
  %a3 = extractelement <4 x i32> %rot, i32 3
  call i32 (ptr, ...) @printf(ptr @.d, i32 %a0)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %a1)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %a2)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %a3)
  %f0 = extractelement <2 x double> %fa1, i32 0
  %f1 = extractelement <2 x double> %fa1, i32 1
  call i32 (ptr, ...) @printf(ptr @.g, double %f0)
  call i32 (ptr, ...) @printf(ptr @.g, double %f1)
  call i32 (ptr, ...) @printf(ptr @.nl)
  ret void
}

define { <2 x float>, float } @three(float %a, float %b, float %c) {
  %v0 = insertelement <2 x float> poison, float %a, i32 0
  %v1 = insertelement <2 x float> %v0, float %b, i32 1
  %r0 = insertvalue { <2 x float>, float } poison, <2 x float> %v1, 0
  %r1 = insertvalue { <2 x float>, float } %r0, float %c, 1
  ret { <2 x float>, float } %r1
}

define void @vector_gep(ptr %p) {
  %e = getelementptr <4 x i32>, ptr %p, i64 1, i64 2
  store i32 77, ptr %e
  %v = load <8 x i32>, ptr %p, align 4
  %s = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> %v)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %s)
  ret void
}

define i32 @main() {
  %slot = alloca <8 x i32>
  store <8 x i32> <i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8>, ptr %slot
  call void @llvm.memset.p0.i64(ptr @bytes, i8 -1, i64 32, i1 false)
  call void @layouts()
  call void @bitcasts(i64 -81985529216486896)
  %r1 = call i32 @lanes_at(<8 x i32> <i32 1, i32 -2, i32 3, i32 -4, i32 5, i32 6, i32 7, i32 8>, i32 3, i64 6)
  %r2 = call i32 @lanes_at(<8 x i32> <i32 10, i32 20, i32 30, i32 40, i32 50, i32 60, i32 70, i32 80>, i32 7, i64 0)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %r1)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %r2)
  call i32 (ptr, ...) @printf(ptr @.nl)
  call void @loop(i32 5)
  %t = call { <2 x float>, float } @three(float 1.5, float -2.0, float 3.25)
  %tv = extractvalue { <2 x float>, float } %t, 0
  %tc = extractvalue { <2 x float>, float } %t, 1
  %tb = extractelement <2 x float> %tv, i32 1
  %sum = fadd float %tb, %tc
  %sd = fpext float %sum to double
  call i32 (ptr, ...) @printf(ptr @.g, double %sd)
  call void @vector_gep(ptr %slot)
  call i32 (ptr, ...) @printf(ptr @.nl)
  call i32 @vector_globals()
  ret i32 3
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i32 @llvm.vector.reduce.add.v8i32(<8 x i32>)
declare i32 @llvm.vector.reduce.xor.v8i32(<8 x i32>)

; Vector globals: their initial bytes at LLVM's layout (a mask a bit each, <3 x i32> 12 bytes and
; padding, pointer lanes relocated).
@gv = global <4 x i32> <i32 1, i32 -2, i32 3, i32 305419896>, align 16
@gm = global <12 x i1> <i1 1, i1 0, i1 1, i1 1, i1 0, i1 0, i1 0, i1 1, i1 0, i1 1, i1 1, i1 0>
@g3 = global <3 x i32> <i32 7, i32 8, i32 9>
@gp = global <2 x ptr> <ptr @gv, ptr getelementptr (i8, ptr @g3, i64 4)>
@gh = global <4 x half> <half 0xH3C00, half 0xH8001, half 0xH7C00, half 0xH0000>

define i32 @vector_globals() {
  %m = load i16, ptr @gm
  %mw = zext i16 %m to i32
  call i32 (ptr, ...) @printf(ptr @.d, i32 %mw)
  %p = load <2 x ptr>, ptr @gp
  %p1 = extractelement <2 x ptr> %p, i32 1
  %x = load i32, ptr %p1
  call i32 (ptr, ...) @printf(ptr @.d, i32 %x)
  %v = load <4 x i32>, ptr @gv
  %s = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %v)
  call i32 (ptr, ...) @printf(ptr @.d, i32 %s)
  %h = load i64, ptr @gh
  call i32 (ptr, ...) @printf(ptr @.x, i64 %h)
  %t = load <3 x i32>, ptr @g3
  %t2 = extractelement <3 x i32> %t, i32 2
  call i32 (ptr, ...) @printf(ptr @.d, i32 %t2)
  call i32 (ptr, ...) @printf(ptr @.nl)
  ret i32 0
}

declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
