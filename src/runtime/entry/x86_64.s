// The register-saving routine of the runtime entry and of exits on x86-64 (Intel syntax, as Rust's
// global_asm! reads it). An entry stub (Arch::entry_stub) or an exit group's prologue
// (Arch::exit_group) jumps here with the descriptor (handler, context) at [rsp], a word for the
// handler (an exit's number; an entry's is not read) at [rsp + 8] and the return address into
// generated code at [rsp + 16]. Saves every register into a Registers (runtime/registers.rs: general
// by DWARF number at 0, xmm at 256, RFLAGS at 768, SP at 776, return address at 784) on the stack,
// calls handler(&mut Registers, context, word) with the stack 16-aligned, restores every register
// but RSP from it and returns to its return address.
// Only lea, mov, push and pop run before the flags are saved and after they are restored.
    .text
    .p2align 4
    .globl patchmap_entry_save
patchmap_entry_save:
    lea rsp, [rsp - 800]
    mov [rsp + 0], rax
    mov [rsp + 8], rdx
    mov [rsp + 16], rcx
    mov [rsp + 24], rbx
    mov [rsp + 32], rsi
    mov [rsp + 40], rdi
    mov [rsp + 48], rbp
    mov [rsp + 64], r8
    mov [rsp + 72], r9
    mov [rsp + 80], r10
    mov [rsp + 88], r11
    mov [rsp + 96], r12
    mov [rsp + 104], r13
    mov [rsp + 112], r14
    mov [rsp + 120], r15
    pushfq
    pop rax
    mov [rsp + 768], rax
    // RSP at the stop: above this, the descriptor, the word and the return address.
    lea rax, [rsp + 824]
    mov [rsp + 56], rax
    mov [rsp + 776], rax
    mov rax, [rsp + 816]
    mov [rsp + 784], rax
    movdqu [rsp + 256], xmm0
    movdqu [rsp + 272], xmm1
    movdqu [rsp + 288], xmm2
    movdqu [rsp + 304], xmm3
    movdqu [rsp + 320], xmm4
    movdqu [rsp + 336], xmm5
    movdqu [rsp + 352], xmm6
    movdqu [rsp + 368], xmm7
    movdqu [rsp + 384], xmm8
    movdqu [rsp + 400], xmm9
    movdqu [rsp + 416], xmm10
    movdqu [rsp + 432], xmm11
    movdqu [rsp + 448], xmm12
    movdqu [rsp + 464], xmm13
    movdqu [rsp + 480], xmm14
    movdqu [rsp + 496], xmm15
    // What x86-64 does not have reads as zero.
    xor eax, eax
    mov [rsp + 128], rax
    mov [rsp + 136], rax
    mov [rsp + 144], rax
    mov [rsp + 152], rax
    mov [rsp + 160], rax
    mov [rsp + 168], rax
    mov [rsp + 176], rax
    mov [rsp + 184], rax
    mov [rsp + 192], rax
    mov [rsp + 200], rax
    mov [rsp + 208], rax
    mov [rsp + 216], rax
    mov [rsp + 224], rax
    mov [rsp + 232], rax
    mov [rsp + 240], rax
    mov [rsp + 248], rax
    mov [rsp + 512], rax
    mov [rsp + 520], rax
    mov [rsp + 528], rax
    mov [rsp + 536], rax
    mov [rsp + 544], rax
    mov [rsp + 552], rax
    mov [rsp + 560], rax
    mov [rsp + 568], rax
    mov [rsp + 576], rax
    mov [rsp + 584], rax
    mov [rsp + 592], rax
    mov [rsp + 600], rax
    mov [rsp + 608], rax
    mov [rsp + 616], rax
    mov [rsp + 624], rax
    mov [rsp + 632], rax
    mov [rsp + 640], rax
    mov [rsp + 648], rax
    mov [rsp + 656], rax
    mov [rsp + 664], rax
    mov [rsp + 672], rax
    mov [rsp + 680], rax
    mov [rsp + 688], rax
    mov [rsp + 696], rax
    mov [rsp + 704], rax
    mov [rsp + 712], rax
    mov [rsp + 720], rax
    mov [rsp + 728], rax
    mov [rsp + 736], rax
    mov [rsp + 744], rax
    mov [rsp + 752], rax
    mov [rsp + 760], rax
    mov [rsp + 792], rax
    mov rbx, rsp
    mov rax, [rsp + 800]
    mov rdi, rsp
    mov rsi, [rax + 8]
    mov rdx, [rsp + 808]
    and rsp, -16
    call qword ptr [rax]
    mov rsp, rbx
    // The handler may have changed the return address: `ret` takes it from the original's slot.
    mov rax, [rsp + 784]
    mov [rsp + 816], rax
    movdqu xmm0, [rsp + 256]
    movdqu xmm1, [rsp + 272]
    movdqu xmm2, [rsp + 288]
    movdqu xmm3, [rsp + 304]
    movdqu xmm4, [rsp + 320]
    movdqu xmm5, [rsp + 336]
    movdqu xmm6, [rsp + 352]
    movdqu xmm7, [rsp + 368]
    movdqu xmm8, [rsp + 384]
    movdqu xmm9, [rsp + 400]
    movdqu xmm10, [rsp + 416]
    movdqu xmm11, [rsp + 432]
    movdqu xmm12, [rsp + 448]
    movdqu xmm13, [rsp + 464]
    movdqu xmm14, [rsp + 480]
    movdqu xmm15, [rsp + 496]
    mov rax, [rsp + 768]
    push rax
    popfq
    mov rax, [rsp + 0]
    mov rdx, [rsp + 8]
    mov rcx, [rsp + 16]
    mov rbx, [rsp + 24]
    mov rsi, [rsp + 32]
    mov rdi, [rsp + 40]
    mov rbp, [rsp + 48]
    mov r8, [rsp + 64]
    mov r9, [rsp + 72]
    mov r10, [rsp + 80]
    mov r11, [rsp + 88]
    mov r12, [rsp + 96]
    mov r13, [rsp + 104]
    mov r14, [rsp + 112]
    mov r15, [rsp + 120]
    lea rsp, [rsp + 816]
    ret
