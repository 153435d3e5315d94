; expect: 2:17: error: vector type '<4096 x i128>' takes 65536 bytes, more than 32768: a stack map records a vector's size in 16 bits (keep such data in memory)
define void @f(<4096 x i128> %v) {
  ret void
}
