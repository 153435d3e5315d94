; expect: 3:50: error: 'bitcast' cannot change the address space ('ptr' to 'ptr addrspace(1)')
@g = global i64 0
@p = global ptr addrspace(1) bitcast (i64* @g to i64 addrspace(1)*)
