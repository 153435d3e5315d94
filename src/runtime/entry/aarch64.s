// The register-saving routine of the runtime entry and of exits on AArch64. An entry stub
// (Arch::entry_stub) or an exit group's prologue (Arch::exit_group) branches here with the
// descriptor (handler, context) in x16, the caller's x16 and x17 pushed at [sp] and [sp, #8], a
// word for the handler (an exit's number; an entry's is not read) at [sp, #16] (16 bytes pushed in
// all, keeping SP aligned), and the return address into generated code in x30. Saves every register
// into a Registers (runtime/registers.rs: x0-x30 and SP at 0, q0-q31 at 256, NZCV at 768, SP at
// 776, return address at 784) on the stack, calls handler(&mut Registers, context, word), restores every
// register but SP from it (x30 from the return address, which the handler may have changed) and
// returns there. Nothing here sets the flags (no adds/subs) before they are saved or after they
// are restored.
    .text
    .p2align 4
    .globl patchmap_entry_save
patchmap_entry_save:
    sub sp, sp, #800
    stp x0, x1, [sp, #0]
    stp x2, x3, [sp, #16]
    stp x4, x5, [sp, #32]
    stp x6, x7, [sp, #48]
    stp x8, x9, [sp, #64]
    stp x10, x11, [sp, #80]
    stp x12, x13, [sp, #96]
    stp x14, x15, [sp, #112]
    ldr x0, [sp, #800]
    ldr x1, [sp, #808]
    stp x0, x1, [sp, #128]
    stp x18, x19, [sp, #144]
    stp x20, x21, [sp, #160]
    stp x22, x23, [sp, #176]
    stp x24, x25, [sp, #192]
    stp x26, x27, [sp, #208]
    stp x28, x29, [sp, #224]
    // SP at the stop: above this and the pushed x16, x17, word and padding.
    add x0, sp, #832
    stp x30, x0, [sp, #240]
    stp q0, q1, [sp, #256]
    stp q2, q3, [sp, #288]
    stp q4, q5, [sp, #320]
    stp q6, q7, [sp, #352]
    stp q8, q9, [sp, #384]
    stp q10, q11, [sp, #416]
    stp q12, q13, [sp, #448]
    stp q14, q15, [sp, #480]
    stp q16, q17, [sp, #512]
    stp q18, q19, [sp, #544]
    stp q20, q21, [sp, #576]
    stp q22, q23, [sp, #608]
    stp q24, q25, [sp, #640]
    stp q26, q27, [sp, #672]
    stp q28, q29, [sp, #704]
    stp q30, q31, [sp, #736]
    mrs x1, nzcv
    str x1, [sp, #768]
    str x0, [sp, #776]
    str x30, [sp, #784]
    str xzr, [sp, #792]
    mov x0, sp
    ldr x1, [x16, #8]
    ldr x2, [sp, #816]
    ldr x16, [x16]
    blr x16
    ldp q0, q1, [sp, #256]
    ldp q2, q3, [sp, #288]
    ldp q4, q5, [sp, #320]
    ldp q6, q7, [sp, #352]
    ldp q8, q9, [sp, #384]
    ldp q10, q11, [sp, #416]
    ldp q12, q13, [sp, #448]
    ldp q14, q15, [sp, #480]
    ldp q16, q17, [sp, #512]
    ldp q18, q19, [sp, #544]
    ldp q20, q21, [sp, #576]
    ldp q22, q23, [sp, #608]
    ldp q24, q25, [sp, #640]
    ldp q26, q27, [sp, #672]
    ldp q28, q29, [sp, #704]
    ldp q30, q31, [sp, #736]
    ldr x0, [sp, #768]
    msr nzcv, x0
    ldr x30, [sp, #784]
    ldp x0, x1, [sp, #0]
    ldp x2, x3, [sp, #16]
    ldp x4, x5, [sp, #32]
    ldp x6, x7, [sp, #48]
    ldp x8, x9, [sp, #64]
    ldp x10, x11, [sp, #80]
    ldp x12, x13, [sp, #96]
    ldp x14, x15, [sp, #112]
    ldp x16, x17, [sp, #128]
    ldp x18, x19, [sp, #144]
    ldp x20, x21, [sp, #160]
    ldp x22, x23, [sp, #176]
    ldp x24, x25, [sp, #192]
    ldp x26, x27, [sp, #208]
    ldp x28, x29, [sp, #224]
    add sp, sp, #832
    ret
