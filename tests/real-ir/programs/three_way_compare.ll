; `llvm.scmp` and `llvm.ucmp` (LLVM 19), as rustc emits them for `Ord::cmp` and later clangs for
; `(a > b) - (a < b)`: signed and unsigned, results wider and narrower than the operands (`i2`),
; an `i24` operand whose sign bit is not its container's, and vectors compared lane by lane.
; Every pair of five values, both ways round.
source_filename = "three_way_compare.ll"

@values = private constant [5 x i64] [i64 -5, i64 0, i64 3, i64 -9223372036854775808, i64 9223372036854775807]
@fmt = private constant [19 x i8] c"%d %d %d %d %d %d\0A\00"
@vfmt = private constant [21 x i8] c"v %d %d %d %d %d %d\0A\00"

declare i32 @printf(ptr, ...)
declare i8 @llvm.scmp.i8.i64(i64, i64)
declare i8 @llvm.ucmp.i8.i64(i64, i64)
declare i32 @llvm.scmp.i32.i32(i32, i32)
declare i2 @llvm.ucmp.i2.i32(i32, i32)
declare i32 @llvm.scmp.i32.i24(i24, i24)
declare i64 @llvm.ucmp.i64.i8(i8, i8)
declare <4 x i8> @llvm.scmp.v4i8.v4i32(<4 x i32>, <4 x i32>)
declare <2 x i32> @llvm.ucmp.v2i32.v2i64(<2 x i64>, <2 x i64>)

define internal void @row(i64 %a, i64 %b) {
entry:
  %s8 = call i8 @llvm.scmp.i8.i64(i64 %a, i64 %b)
  %u8 = call i8 @llvm.ucmp.i8.i64(i64 %a, i64 %b)
  %a32 = trunc i64 %a to i32
  %b32 = trunc i64 %b to i32
  %s32 = call i32 @llvm.scmp.i32.i32(i32 %a32, i32 %b32)
  %u2 = call i2 @llvm.ucmp.i2.i32(i32 %a32, i32 %b32)
  %a24 = trunc i64 %a to i24
  %b24 = trunc i64 %b to i24
  %s24 = call i32 @llvm.scmp.i32.i24(i24 %a24, i24 %b24)
  %a8 = trunc i64 %a to i8
  %b8 = trunc i64 %b to i8
  %u64 = call i64 @llvm.ucmp.i64.i8(i8 %a8, i8 %b8)
  %s8w = sext i8 %s8 to i32
  %u8w = sext i8 %u8 to i32
  %u2w = sext i2 %u2 to i32
  %u64w = trunc i64 %u64 to i32
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %s8w, i32 %u8w, i32 %s32, i32 %u2w, i32 %s24, i32 %u64w)
  ret void
}

define internal void @lanes(i64 %b) {
entry:
  %v0 = load i64, ptr @values
  %p2 = getelementptr i64, ptr @values, i64 2
  %v2 = load i64, ptr %p2
  %p3 = getelementptr i64, ptr @values, i64 3
  %v3 = load i64, ptr %p3
  %t0 = trunc i64 %v0 to i32
  %t2 = trunc i64 %v2 to i32
  %t3 = trunc i64 %v3 to i32
  %tb = trunc i64 %b to i32
  %x0 = insertelement <4 x i32> undef, i32 %t0, i32 0
  %x1 = insertelement <4 x i32> %x0, i32 0, i32 1
  %x2 = insertelement <4 x i32> %x1, i32 %t2, i32 2
  %x = insertelement <4 x i32> %x2, i32 %t3, i32 3
  %y0 = insertelement <4 x i32> undef, i32 %tb, i32 0
  %y = shufflevector <4 x i32> %y0, <4 x i32> undef, <4 x i32> zeroinitializer
  %s = call <4 x i8> @llvm.scmp.v4i8.v4i32(<4 x i32> %x, <4 x i32> %y)
  %w0 = insertelement <2 x i64> undef, i64 %v0, i32 0
  %w = insertelement <2 x i64> %w0, i64 %v3, i32 1
  %z0 = insertelement <2 x i64> undef, i64 %b, i32 0
  %z = insertelement <2 x i64> %z0, i64 %b, i32 1
  %u = call <2 x i32> @llvm.ucmp.v2i32.v2i64(<2 x i64> %w, <2 x i64> %z)
  %s0 = extractelement <4 x i8> %s, i32 0
  %s1 = extractelement <4 x i8> %s, i32 1
  %s2 = extractelement <4 x i8> %s, i32 2
  %s3 = extractelement <4 x i8> %s, i32 3
  %e0 = sext i8 %s0 to i32
  %e1 = sext i8 %s1 to i32
  %e2 = sext i8 %s2 to i32
  %e3 = sext i8 %s3 to i32
  %u0 = extractelement <2 x i32> %u, i32 0
  %u1 = extractelement <2 x i32> %u, i32 1
  %p = call i32 (ptr, ...) @printf(ptr @vfmt, i32 %e0, i32 %e1, i32 %e2, i32 %e3, i32 %u0, i32 %u1)
  ret void
}

define i32 @main() {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.next ]
  %pa = getelementptr i64, ptr @values, i64 %i
  %a = load i64, ptr %pa
  call void @lanes(i64 %a)
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %pb = getelementptr i64, ptr @values, i64 %j
  %b = load i64, ptr %pb
  call void @row(i64 %a, i64 %b)
  %j.next = add i64 %j, 1
  %j.done = icmp eq i64 %j.next, 5
  br i1 %j.done, label %outer.next, label %inner

outer.next:
  %i.next = add i64 %i, 1
  %i.done = icmp eq i64 %i.next, 5
  br i1 %i.done, label %exit, label %outer

exit:
  ret i32 7
}
