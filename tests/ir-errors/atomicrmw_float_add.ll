; expect: 3:3: error: 'atomicrmw add' of type 'double' is not supported
define double @f(ptr %p) {
  %v = atomicrmw add ptr %p, double 1.0 seq_cst, align 8
  ret double %v
}
