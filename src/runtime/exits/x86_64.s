// The activation through which the runtime calls generated code that may exit, on x86-64 (Intel
// syntax). patchmap_exits_enter(code, arguments, record) saves the callee-saved registers, stores
// its stack pointer at *record, calls code with the six words at arguments in RDI, RSI, RDX, RCX,
// R8, R9, and returns what code returns. patchmap_exits_leave is where an exit handler that leaves
// resumes (the exit routine restores the registers, then returns here): RCX holds the stack pointer
// stored at *record, RAX the result; it discards the frames below and returns from the activation.
    .text
    .p2align 4
    .globl patchmap_exits_enter
patchmap_exits_enter:
    push rbp
    push rbx
    push r12
    push r13
    push r14
    push r15
    // Six pushes after the return address leave RSP 8 off the 16-byte alignment calls need.
    sub rsp, 8
    mov [rdx], rsp
    mov rax, rdi
    mov r10, rsi
    mov rdi, [r10]
    mov rsi, [r10 + 8]
    mov rdx, [r10 + 16]
    mov rcx, [r10 + 24]
    mov r8, [r10 + 32]
    mov r9, [r10 + 40]
    call rax
patchmap_exits_return:
    add rsp, 8
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbx
    pop rbp
    ret

    .p2align 4
    .globl patchmap_exits_leave
patchmap_exits_leave:
    mov rsp, rcx
    jmp patchmap_exits_return
