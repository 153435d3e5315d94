; expect: 2:17: error: vector length 0 is not 1 to 4096: patchmap lowers a vector lane by lane, and longer ones would take too long to compile (keep such data in memory)
define void @f(<0 x i32> %v) {
  ret void
}
