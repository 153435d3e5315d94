; expect: 2:20: error: unsupported address space 1
define void @f(ptr addrspace(1) %p) {
  ret void
}
