; expect: 2:20: error: unsupported address space 256 (patchmap supports 0 to 255)
define void @f(ptr addrspace(256) %p) {
  ret void
}
