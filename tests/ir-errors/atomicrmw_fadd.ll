; expect: 3:18: error: unsupported 'atomicrmw' operation 'fadd'
define double @f(ptr %p) {
  %v = atomicrmw fadd ptr %p, double 1.0 seq_cst, align 8
  ret double %v
}
