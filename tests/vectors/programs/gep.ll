; Vector getelementptr (issue 27): lane by lane, scalar operands splatted as LLVM defines it. A
; scalar base with vector indices, a vector base with scalar and vector indices (i64, i32 and
; negative), a struct field chosen by a splat constant, array steps with run-time lane indices, and
; the resulting pointers loaded through and compared, and vectors of pointers passed to and returned
; from a function (the C ABI's vector registers); indices come from a writable global so nothing
; folds. One value a line.
@arr = global [8 x i64] [i64 10, i64 11, i64 12, i64 13, i64 14, i64 15, i64 16, i64 17]
@pairs = global [4 x { i32, i64 }] [{ i32, i64 } { i32 1, i64 100 }, { i32, i64 } { i32 2, i64 200 }, { i32, i64 } { i32 3, i64 300 }, { i32, i64 } { i32 4, i64 400 }]
@grid = global [3 x [4 x i16]] [[4 x i16] [i16 0, i16 1, i16 2, i16 3], [4 x i16] [i16 10, i16 11, i16 12, i16 13], [4 x i16] [i16 20, i16 21, i16 22, i16 23]]
@k = global i64 3
declare i32 @printf(ptr, ...)
@fmt = private constant [6 x i8] c"%lld\0A\00"

; Each lane of `v` advanced by its lane of `by` elements of i64.
define internal <2 x ptr> @advance(<2 x ptr> %v, <2 x i64> %by) noinline {
  %r = getelementptr i64, <2 x ptr> %v, <2 x i64> %by
  ret <2 x ptr> %r
}

define i32 @main() {
  %k = load i64, ptr @k
  %ks = insertelement <2 x i64> poison, i64 %k, i32 0
  %kv = shufflevector <2 x i64> %ks, <2 x i64> poison, <2 x i32> zeroinitializer
  %idx = add <2 x i64> %kv, <i64 0, i64 2>
  ; a scalar base and a vector index: <&arr[3], &arr[5]>
  %p = getelementptr i64, ptr @arr, <2 x i64> %idx
  ; a vector base and a scalar index: <&arr[2], &arr[4]>
  %q = getelementptr inbounds i64, <2 x ptr> %p, i64 -1
  ; a struct field through a splat constant: <&pairs[1].1, &pairs[3].1>
  %s = getelementptr { i32, i64 }, ptr @pairs, <2 x i64> <i64 1, i64 3>, <2 x i32> <i32 1, i32 1>
  ; a vector base and an i32 vector index in bytes: <&arr[3], &arr[3]>
  %t = getelementptr i8, <2 x ptr> %q, <2 x i32> <i32 8, i32 -8>
  ; run-time rows and columns: <&grid[1][3], &grid[2][0], &grid[0][2], &grid[2][3]>
  %k32 = trunc i64 %k to i32
  %rs = insertelement <4 x i32> poison, i32 %k32, i32 0
  %rv = shufflevector <4 x i32> %rs, <4 x i32> poison, <4 x i32> zeroinitializer
  %rows = sub <4 x i32> %rv, <i32 2, i32 1, i32 3, i32 1>
  %cols = and <4 x i32> %rv, <i32 3, i32 0, i32 2, i32 7>
  %g = getelementptr [3 x [4 x i16]], ptr @grid, i64 0, <4 x i32> %rows, <4 x i32> %cols
  %p1 = extractelement <2 x ptr> %p, i32 1
  %q0 = extractelement <2 x ptr> %q, i32 0
  %s1 = extractelement <2 x ptr> %s, i32 1
  %t0 = extractelement <2 x ptr> %t, i32 0
  %t1 = extractelement <2 x ptr> %t, i32 1
  %a = load i64, ptr %p1
  %b = load i64, ptr %q0
  %c = load i64, ptr %s1
  %d = load i64, ptr %t0
  %e = load i64, ptr %t1
  %g0 = extractelement <4 x ptr> %g, i32 0
  %g1 = extractelement <4 x ptr> %g, i32 1
  %g2 = extractelement <4 x ptr> %g, i32 2
  %g3 = extractelement <4 x ptr> %g, i32 3
  %h0 = load i16, ptr %g0
  %h1 = load i16, ptr %g1
  %h2 = load i16, ptr %g2
  %h3 = load i16, ptr %g3
  %w0 = sext i16 %h0 to i64
  %w1 = sext i16 %h1 to i64
  %w2 = sext i16 %h2 to i64
  %w3 = sext i16 %h3 to i64
  ; through a call: <&arr[3] + 2, &arr[5] - 4> = <&arr[5], &arr[1]>
  %u = call <2 x ptr> @advance(<2 x ptr> %p, <2 x i64> <i64 2, i64 -4>)
  %u0 = extractelement <2 x ptr> %u, i32 0
  %u1 = extractelement <2 x ptr> %u, i32 1
  %f = load i64, ptr %u0
  %h = load i64, ptr %u1
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %a)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %b)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %c)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %d)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %e)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %w0)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %w1)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %w2)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %w3)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %f)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %h)
  ; lane-wise pointer comparison of vector GEP results: <1, 0>
  %same = icmp eq <2 x ptr> %t, %p
  %m = bitcast <2 x i1> %same to i2
  %status = zext i2 %m to i32
  ret i32 %status
}
