; Vectors live at stack maps, for the run-time location checker (tests/stackmaps/vectors.rs):
; computed from a writable global (nothing folds), recorded before a call (ID 1) and across one
; that clobbers every caller-saved register (ID 2). Each execution is announced first by a line
; "S<id>" with one token " 64:<hex>" per location: the vector's first 8 bytes (its low lanes), which
; the location's low 64 bits must hold.
declare i32 @printf(ptr, ...)
declare void @llvm.experimental.stackmap(i64, i32, ...)
@ints = global [4 x i32] [i32 1, i32 -2, i32 305419896, i32 7], align 16
@dbls = global [2 x double] [double 1.5, double -0.25], align 16
@fmt = private constant [29 x i8] c"S%d 64:%llx 64:%llx 64:%llx\0A\00"

define internal void @announce(i32 %id, <4 x i32> %a, <2 x double> %b, <8 x i16> %c) noinline {
  %aw = bitcast <4 x i32> %a to <2 x i64>
  %bw = bitcast <2 x double> %b to <2 x i64>
  %cw = bitcast <8 x i16> %c to <2 x i64>
  %a0 = extractelement <2 x i64> %aw, i32 0
  %b0 = extractelement <2 x i64> %bw, i32 0
  %c0 = extractelement <2 x i64> %cw, i32 0
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %id, i64 %a0, i64 %b0, i64 %c0)
  ret void
}

define i32 @main() {
  %v = load <4 x i32>, ptr @ints
  %d = load <2 x double>, ptr @dbls
  %a = mul <4 x i32> %v, <i32 3, i32 5, i32 7, i32 11>
  %b = fmul <2 x double> %d, %d
  %w = bitcast <4 x i32> %v to <8 x i16>
  %c = add <8 x i16> %w, splat (i16 1)
  call void @announce(i32 1, <4 x i32> %a, <2 x double> %b, <8 x i16> %c)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, <4 x i32> %a, <2 x double> %b, <8 x i16> %c)
  call void @announce(i32 2, <4 x i32> %a, <2 x double> %b, <8 x i16> %c)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, <4 x i32> %a, <2 x double> %b, <8 x i16> %c)
  %s = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %a)
  ret i32 %s
}

declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
