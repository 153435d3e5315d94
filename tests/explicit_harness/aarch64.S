// AArch64 register harness for tests/programs/explicit.rs (issue 24), after the one the vendored patch 0004 was tried with.
// harness(code, in, out): in/out are 97 words: x0-x30 (x16, the call target, x18 and x30 are not
// loaded), in[31]: sp at the call (written here), then v0-v31, two words each, out[96]: sp after.
// mix(a, b) = 3a + b, overwriting every register a C callee may (and v8-v15's upper halves,
// which AAPCS64 does not preserve), recording sp mod 16 at entry.
.text
.globl harness
.p2align 4
harness:
stp x29, x30, [sp, #-16]!
mov x29, sp
stp x19, x20, [sp, #-16]!
stp x21, x22, [sp, #-16]!
stp x23, x24, [sp, #-16]!
stp x25, x26, [sp, #-16]!
stp x27, x28, [sp, #-16]!
stp d8, d9, [sp, #-16]!
stp d10, d11, [sp, #-16]!
stp d12, d13, [sp, #-16]!
stp d14, d15, [sp, #-16]!
stp x2, x0, [sp, #-16]!
mov x16, x0
mov x9, sp
str x9, [x1, #248]
ldp q0, q1, [x1, #256]
ldp q2, q3, [x1, #288]
ldp q4, q5, [x1, #320]
ldp q6, q7, [x1, #352]
ldp q8, q9, [x1, #384]
ldp q10, q11, [x1, #416]
ldp q12, q13, [x1, #448]
ldp q14, q15, [x1, #480]
ldp q16, q17, [x1, #512]
ldp q18, q19, [x1, #544]
ldp q20, q21, [x1, #576]
ldp q22, q23, [x1, #608]
ldp q24, q25, [x1, #640]
ldp q26, q27, [x1, #672]
ldp q28, q29, [x1, #704]
ldp q30, q31, [x1, #736]
ldr x0, [x1]
ldr x2, [x1, #16]
ldr x3, [x1, #24]
ldr x4, [x1, #32]
ldr x5, [x1, #40]
ldr x6, [x1, #48]
ldr x7, [x1, #56]
ldr x8, [x1, #64]
ldr x9, [x1, #72]
ldr x10, [x1, #80]
ldr x11, [x1, #88]
ldr x12, [x1, #96]
ldr x13, [x1, #104]
ldr x14, [x1, #112]
ldr x15, [x1, #120]
ldr x17, [x1, #136]
ldr x19, [x1, #152]
ldr x20, [x1, #160]
ldr x21, [x1, #168]
ldr x22, [x1, #176]
ldr x23, [x1, #184]
ldr x24, [x1, #192]
ldr x25, [x1, #200]
ldr x26, [x1, #208]
ldr x27, [x1, #216]
ldr x28, [x1, #224]
ldr x29, [x1, #232]
ldr x1, [x1, #8]
blr x16
str x0, [sp, #-16]!
ldr x0, [sp, #16]
str x1, [x0, #8]
str x2, [x0, #16]
str x3, [x0, #24]
str x4, [x0, #32]
str x5, [x0, #40]
str x6, [x0, #48]
str x7, [x0, #56]
str x8, [x0, #64]
str x9, [x0, #72]
str x10, [x0, #80]
str x11, [x0, #88]
str x12, [x0, #96]
str x13, [x0, #104]
str x14, [x0, #112]
str x15, [x0, #120]
str x16, [x0, #128]
str x17, [x0, #136]
str x19, [x0, #152]
str x20, [x0, #160]
str x21, [x0, #168]
str x22, [x0, #176]
str x23, [x0, #184]
str x24, [x0, #192]
str x25, [x0, #200]
str x26, [x0, #208]
str x27, [x0, #216]
str x28, [x0, #224]
str x29, [x0, #232]
ldr x1, [sp], #16
str x1, [x0]
mov x9, sp
str x9, [x0, #768]
stp q0, q1, [x0, #256]
stp q2, q3, [x0, #288]
stp q4, q5, [x0, #320]
stp q6, q7, [x0, #352]
stp q8, q9, [x0, #384]
stp q10, q11, [x0, #416]
stp q12, q13, [x0, #448]
stp q14, q15, [x0, #480]
stp q16, q17, [x0, #512]
stp q18, q19, [x0, #544]
stp q20, q21, [x0, #576]
stp q22, q23, [x0, #608]
stp q24, q25, [x0, #640]
stp q26, q27, [x0, #672]
stp q28, q29, [x0, #704]
stp q30, q31, [x0, #736]
add sp, sp, #16
ldp d14, d15, [sp], #16
ldp d12, d13, [sp], #16
ldp d10, d11, [sp], #16
ldp d8, d9, [sp], #16
ldp x27, x28, [sp], #16
ldp x25, x26, [sp], #16
ldp x23, x24, [sp], #16
ldp x21, x22, [sp], #16
ldp x19, x20, [sp], #16
ldp x29, x30, [sp], #16
ret
.globl mix
mix:
mov x9, sp
and x9, x9, #15
adrp x10, align_seen
str x9, [x10, :lo12:align_seen]
add x9, x0, x0, lsl #1
add x0, x9, x1
movz x1, #0xc0de
movk x1, #0x0bad, lsl #16
movk x1, #0xc0de, lsl #32
movk x1, #0x0bad, lsl #48
mov x2, x1
mov x3, x1
mov x4, x1
mov x5, x1
mov x6, x1
mov x7, x1
mov x8, x1
mov x9, x1
mov x10, x1
mov x11, x1
mov x12, x1
mov x13, x1
mov x14, x1
mov x15, x1
mov x16, x1
mov x17, x1
dup v0.2d, x1
mov v1.16b, v0.16b
mov v2.16b, v0.16b
mov v3.16b, v0.16b
mov v4.16b, v0.16b
mov v5.16b, v0.16b
mov v6.16b, v0.16b
mov v7.16b, v0.16b
mov v16.16b, v0.16b
mov v17.16b, v0.16b
mov v18.16b, v0.16b
mov v19.16b, v0.16b
mov v20.16b, v0.16b
mov v21.16b, v0.16b
mov v22.16b, v0.16b
mov v23.16b, v0.16b
mov v24.16b, v0.16b
mov v25.16b, v0.16b
mov v26.16b, v0.16b
mov v27.16b, v0.16b
mov v28.16b, v0.16b
mov v29.16b, v0.16b
mov v30.16b, v0.16b
mov v31.16b, v0.16b
mov v8.d[1], x1
mov v9.d[1], x1
mov v10.d[1], x1
mov v11.d[1], x1
mov v12.d[1], x1
mov v13.d[1], x1
mov v14.d[1], x1
mov v15.d[1], x1
ret
.data
.globl align_seen
.p2align 3
align_seen: .quad 99
.section .note.GNU-stack,"",@progbits
