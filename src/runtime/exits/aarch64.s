// The activation through which the runtime calls generated code that may exit, on AArch64.
// patchmap_exits_enter(code, arguments, record) saves the callee-saved registers (x19-x30, d8-d15),
// stores its stack pointer at *record, calls code with the eight words at arguments in x0-x7, and
// returns what code returns. patchmap_exits_leave is where an exit handler that leaves resumes (the
// exit routine restores the registers and returns here through x30): x9 holds the stack pointer
// stored at *record, x0 the result; it discards the frames below and returns from the activation.
    .text
    .p2align 4
    .globl patchmap_exits_enter
patchmap_exits_enter:
    stp x29, x30, [sp, #-160]!
    mov x29, sp
    stp x19, x20, [sp, #16]
    stp x21, x22, [sp, #32]
    stp x23, x24, [sp, #48]
    stp x25, x26, [sp, #64]
    stp x27, x28, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x9, sp
    str x9, [x2]
    mov x9, x0
    mov x10, x1
    ldp x0, x1, [x10]
    ldp x2, x3, [x10, #16]
    ldp x4, x5, [x10, #32]
    ldp x6, x7, [x10, #48]
    blr x9
patchmap_exits_return:
    ldp x19, x20, [sp, #16]
    ldp x21, x22, [sp, #32]
    ldp x23, x24, [sp, #48]
    ldp x25, x26, [sp, #64]
    ldp x27, x28, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    ldp x29, x30, [sp], #160
    ret

    .p2align 4
    .globl patchmap_exits_leave
patchmap_exits_leave:
    mov sp, x9
    b patchmap_exits_return
