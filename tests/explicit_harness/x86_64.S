# x86-64 register harness for tests/programs/explicit.rs (issue 24).
# harness(code, in, out): in/out are 48 words: general registers by hardware encoding (in[4]:
# rsp at the call, written here), then xmm0-15, two words each. Loads every register but rsp from
# `in`, calls `code` with rsp 16-aligned, and stores every register (rsp after the call) to `out`.
# mix(a, b) = 3a + b, overwriting every register a C callee may, recording rsp mod 16 at entry.
.text
.globl harness
harness:
push %rbx
push %rbp
push %r12
push %r13
push %r14
push %r15
sub $8, %rsp
mov %rdi, harness_code(%rip)
mov %rdx, harness_out(%rip)
mov %rsp, 32(%rsi)
movdqu 128(%rsi), %xmm0
movdqu 144(%rsi), %xmm1
movdqu 160(%rsi), %xmm2
movdqu 176(%rsi), %xmm3
movdqu 192(%rsi), %xmm4
movdqu 208(%rsi), %xmm5
movdqu 224(%rsi), %xmm6
movdqu 240(%rsi), %xmm7
movdqu 256(%rsi), %xmm8
movdqu 272(%rsi), %xmm9
movdqu 288(%rsi), %xmm10
movdqu 304(%rsi), %xmm11
movdqu 320(%rsi), %xmm12
movdqu 336(%rsi), %xmm13
movdqu 352(%rsi), %xmm14
movdqu 368(%rsi), %xmm15
mov 0(%rsi), %rax
mov 8(%rsi), %rcx
mov 16(%rsi), %rdx
mov 24(%rsi), %rbx
mov 40(%rsi), %rbp
mov 56(%rsi), %rdi
mov 64(%rsi), %r8
mov 72(%rsi), %r9
mov 80(%rsi), %r10
mov 88(%rsi), %r11
mov 96(%rsi), %r12
mov 104(%rsi), %r13
mov 112(%rsi), %r14
mov 120(%rsi), %r15
mov 48(%rsi), %rsi
call *harness_code(%rip)
mov %rsp, harness_sp(%rip)
push %rax
mov harness_out(%rip), %rax
mov %rcx, 8(%rax)
mov %rdx, 16(%rax)
mov %rbx, 24(%rax)
mov %rbp, 40(%rax)
mov %rsi, 48(%rax)
mov %rdi, 56(%rax)
mov %r8, 64(%rax)
mov %r9, 72(%rax)
mov %r10, 80(%rax)
mov %r11, 88(%rax)
mov %r12, 96(%rax)
mov %r13, 104(%rax)
mov %r14, 112(%rax)
mov %r15, 120(%rax)
movdqu %xmm0, 128(%rax)
movdqu %xmm1, 144(%rax)
movdqu %xmm2, 160(%rax)
movdqu %xmm3, 176(%rax)
movdqu %xmm4, 192(%rax)
movdqu %xmm5, 208(%rax)
movdqu %xmm6, 224(%rax)
movdqu %xmm7, 240(%rax)
movdqu %xmm8, 256(%rax)
movdqu %xmm9, 272(%rax)
movdqu %xmm10, 288(%rax)
movdqu %xmm11, 304(%rax)
movdqu %xmm12, 320(%rax)
movdqu %xmm13, 336(%rax)
movdqu %xmm14, 352(%rax)
movdqu %xmm15, 368(%rax)
mov harness_sp(%rip), %rcx
mov %rcx, 32(%rax)
pop %rcx
mov %rcx, 0(%rax)
add $8, %rsp
pop %r15
pop %r14
pop %r13
pop %r12
pop %rbp
pop %rbx
ret
.globl mix
mix:
lea (%rdi,%rdi,2), %rax
add %rsi, %rax
mov %rsp, %rcx
and $15, %rcx
mov %rcx, align_seen(%rip)
movabs $0x0badc0de0badc0de, %rcx
mov %rcx, %rdx
mov %rcx, %rsi
mov %rcx, %rdi
mov %rcx, %r8
mov %rcx, %r9
mov %rcx, %r10
mov %rcx, %r11
movq %rcx, %xmm0
movq %rcx, %xmm1
movq %rcx, %xmm2
movq %rcx, %xmm3
movq %rcx, %xmm4
movq %rcx, %xmm5
movq %rcx, %xmm6
movq %rcx, %xmm7
movq %rcx, %xmm8
movq %rcx, %xmm9
movq %rcx, %xmm10
movq %rcx, %xmm11
movq %rcx, %xmm12
movq %rcx, %xmm13
movq %rcx, %xmm14
movq %rcx, %xmm15
ret
.data
.p2align 3
harness_code: .quad 0
harness_out: .quad 0
harness_sp: .quad 0
.globl align_seen
align_seen: .quad 99
.section .note.GNU-stack,"",@progbits
