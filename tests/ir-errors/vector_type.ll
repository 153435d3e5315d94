; expect: 2:16: error: unsupported scalable vector type '<vscale x 4 x i32>': only fixed-width vectors are supported (x86-64 and AArch64 NEON have no scalable registers)
define void @f(<vscale x 4 x i32> %v) {
  ret void
}
