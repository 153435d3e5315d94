; 36 float and double values live across the announcing calls: x86-64 has no callee-saved XMM
; registers (all spilled), AArch64 keeps some in d8-d15. ID 122 mixes registers and FP constants.
; Exit status: the truncated sum & 127.
source_filename = "sm_floats.ll"

declare i32 @putchar(i32)
declare void @llvm.experimental.stackmap(i64, i32, ...)

; Ground truth for tests/stackmaps/checker_llc.rs: each stack map execution is announced by a line "S<id>" with
; one token per live value, in operand order: " <bits>:<hex>" (the value's bits), " *<bits>:<hex>"
; (the first bits a pointer points to) or " -" (not checked: undef).
define internal void @dec(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @dec(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @hex(i64 %v) {
entry:
  %big = icmp uge i64 %v, 16
  br i1 %big, label %rec, label %digit
rec:
  %q = lshr i64 %v, 4
  call void @hex(i64 %q)
  br label %digit
digit:
  %d = and i64 %v, 15
  %d32 = trunc i64 %d to i32
  %letter = icmp uge i32 %d32, 10
  %base = select i1 %letter, i32 87, i32 48
  %c = add i32 %base, %d32
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @sm_begin(i64 %id) {
  call i32 @putchar(i32 83)
  call void @dec(i64 %id)
  ret void
}

define internal void @sm_end() {
  call i32 @putchar(i32 10)
  ret void
}

define internal void @sm_val(i64 %bits, i64 %v) {
  call i32 @putchar(i32 32)
  call void @dec(i64 %bits)
  call i32 @putchar(i32 58)
  call void @hex(i64 %v)
  ret void
}

define internal void @sm_mem(i64 %bits, i64 %v) {
  call i32 @putchar(i32 32)
  call i32 @putchar(i32 42)
  call void @dec(i64 %bits)
  call i32 @putchar(i32 58)
  call void @hex(i64 %v)
  ret void
}

define internal void @sm_skip() {
  call i32 @putchar(i32 32)
  call i32 @putchar(i32 45)
  ret void
}

@seed = internal global i64 12345, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %base = sitofp i64 %s to double
  %fd0 = fmul double %base, 1.5
  %ff0 = fptrunc double %fd0 to float
  %fh0 = fmul float %ff0, -0.5
  %fd1 = fmul double %base, 2.5
  %ff1 = fptrunc double %fd1 to float
  %fh1 = fmul float %ff1, -0.5
  %fd2 = fmul double %base, 3.5
  %ff2 = fptrunc double %fd2 to float
  %fh2 = fmul float %ff2, -0.5
  %fd3 = fmul double %base, 4.5
  %ff3 = fptrunc double %fd3 to float
  %fh3 = fmul float %ff3, -0.5
  %fd4 = fmul double %base, 5.5
  %ff4 = fptrunc double %fd4 to float
  %fh4 = fmul float %ff4, -0.5
  %fd5 = fmul double %base, 6.5
  %ff5 = fptrunc double %fd5 to float
  %fh5 = fmul float %ff5, -0.5
  %fd6 = fmul double %base, 7.5
  %ff6 = fptrunc double %fd6 to float
  %fh6 = fmul float %ff6, -0.5
  %fd7 = fmul double %base, 8.5
  %ff7 = fptrunc double %fd7 to float
  %fh7 = fmul float %ff7, -0.5
  %fd8 = fmul double %base, 9.5
  %ff8 = fptrunc double %fd8 to float
  %fh8 = fmul float %ff8, -0.5
  %fd9 = fmul double %base, 10.5
  %ff9 = fptrunc double %fd9 to float
  %fh9 = fmul float %ff9, -0.5
  %fd10 = fmul double %base, 11.5
  %ff10 = fptrunc double %fd10 to float
  %fh10 = fmul float %ff10, -0.5
  %fd11 = fmul double %base, 12.5
  %ff11 = fptrunc double %fd11 to float
  %fh11 = fmul float %ff11, -0.5
  call void @sm_begin(i64 120)
  %sm.b145 = bitcast double %fd0 to i64
  call void @sm_val(i64 64, i64 %sm.b145)
  %sm.b146 = bitcast double %fd1 to i64
  call void @sm_val(i64 64, i64 %sm.b146)
  %sm.b147 = bitcast double %fd2 to i64
  call void @sm_val(i64 64, i64 %sm.b147)
  %sm.b148 = bitcast double %fd3 to i64
  call void @sm_val(i64 64, i64 %sm.b148)
  %sm.b149 = bitcast double %fd4 to i64
  call void @sm_val(i64 64, i64 %sm.b149)
  %sm.b150 = bitcast double %fd5 to i64
  call void @sm_val(i64 64, i64 %sm.b150)
  %sm.b151 = bitcast double %fd6 to i64
  call void @sm_val(i64 64, i64 %sm.b151)
  %sm.b152 = bitcast double %fd7 to i64
  call void @sm_val(i64 64, i64 %sm.b152)
  %sm.b153 = bitcast double %fd8 to i64
  call void @sm_val(i64 64, i64 %sm.b153)
  %sm.b154 = bitcast double %fd9 to i64
  call void @sm_val(i64 64, i64 %sm.b154)
  %sm.b155 = bitcast double %fd10 to i64
  call void @sm_val(i64 64, i64 %sm.b155)
  %sm.b156 = bitcast double %fd11 to i64
  call void @sm_val(i64 64, i64 %sm.b156)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 120, i32 0, double %fd0, double %fd1, double %fd2, double %fd3, double %fd4, double %fd5, double %fd6, double %fd7, double %fd8, double %fd9, double %fd10, double %fd11)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 121, i32 0, float %fh0, float %fh1, float %fh2, float %fh3, float %fh4, float %fh5, float %fh6, float %fh7, float %fh8, float %fh9, float %fh10, float %fh11)
  call void @sm_begin(i64 121)
  %sm.b157 = bitcast float %fh0 to i32
  %sm.c157 = zext i32 %sm.b157 to i64
  call void @sm_val(i64 32, i64 %sm.c157)
  %sm.b158 = bitcast float %fh1 to i32
  %sm.c158 = zext i32 %sm.b158 to i64
  call void @sm_val(i64 32, i64 %sm.c158)
  %sm.b159 = bitcast float %fh2 to i32
  %sm.c159 = zext i32 %sm.b159 to i64
  call void @sm_val(i64 32, i64 %sm.c159)
  %sm.b160 = bitcast float %fh3 to i32
  %sm.c160 = zext i32 %sm.b160 to i64
  call void @sm_val(i64 32, i64 %sm.c160)
  %sm.b161 = bitcast float %fh4 to i32
  %sm.c161 = zext i32 %sm.b161 to i64
  call void @sm_val(i64 32, i64 %sm.c161)
  %sm.b162 = bitcast float %fh5 to i32
  %sm.c162 = zext i32 %sm.b162 to i64
  call void @sm_val(i64 32, i64 %sm.c162)
  %sm.b163 = bitcast float %fh6 to i32
  %sm.c163 = zext i32 %sm.b163 to i64
  call void @sm_val(i64 32, i64 %sm.c163)
  %sm.b164 = bitcast float %fh7 to i32
  %sm.c164 = zext i32 %sm.b164 to i64
  call void @sm_val(i64 32, i64 %sm.c164)
  %sm.b165 = bitcast float %fh8 to i32
  %sm.c165 = zext i32 %sm.b165 to i64
  call void @sm_val(i64 32, i64 %sm.c165)
  %sm.b166 = bitcast float %fh9 to i32
  %sm.c166 = zext i32 %sm.b166 to i64
  call void @sm_val(i64 32, i64 %sm.c166)
  %sm.b167 = bitcast float %fh10 to i32
  %sm.c167 = zext i32 %sm.b167 to i64
  call void @sm_val(i64 32, i64 %sm.c167)
  %sm.b168 = bitcast float %fh11 to i32
  %sm.c168 = zext i32 %sm.b168 to i64
  call void @sm_val(i64 32, i64 %sm.c168)
  call void @sm_end()
  call void @sm_begin(i64 122)
  %sm.b169 = bitcast double %fd0 to i64
  call void @sm_val(i64 64, i64 %sm.b169)
  %sm.b170 = bitcast float %fh11 to i32
  %sm.c170 = zext i32 %sm.b170 to i64
  call void @sm_val(i64 32, i64 %sm.c170)
  %sm.b171 = bitcast double %fd11 to i64
  call void @sm_val(i64 64, i64 %sm.b171)
  %sm.b172 = bitcast float %ff5 to i32
  %sm.c172 = zext i32 %sm.b172 to i64
  call void @sm_val(i64 32, i64 %sm.c172)
  call void @sm_val(i64 64, i64 4602678819172646912)
  call void @sm_val(i64 32, i64 3222274048)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 122, i32 0, double %fd0, float %fh11, double %fd11, float %ff5, double 0.5, float -2.25)
  %q0 = fadd double %fd0, 0.0
  %q1 = fadd double %q0, %fd1
  %q2 = fadd double %q1, %fd2
  %q3 = fadd double %q2, %fd3
  %q4 = fadd double %q3, %fd4
  %q5 = fadd double %q4, %fd5
  %q6 = fadd double %q5, %fd6
  %q7 = fadd double %q6, %fd7
  %q8 = fadd double %q7, %fd8
  %q9 = fadd double %q8, %fd9
  %q10 = fadd double %q9, %fd10
  %q11 = fadd double %q10, %fd11
  %h0 = fadd float %fh0, 0.0
  %h1 = fadd float %h0, %fh1
  %h2 = fadd float %h1, %fh2
  %h3 = fadd float %h2, %fh3
  %h4 = fadd float %h3, %fh4
  %h5 = fadd float %h4, %fh5
  %h6 = fadd float %h5, %fh6
  %h7 = fadd float %h6, %fh7
  %h8 = fadd float %h7, %fh8
  %h9 = fadd float %h8, %fh9
  %h10 = fadd float %h9, %fh10
  %h11 = fadd float %h10, %fh11
  %k0 = fadd float %ff0, 0.0
  %k1 = fadd float %k0, %ff1
  %k2 = fadd float %k1, %ff2
  %k3 = fadd float %k2, %ff3
  %k4 = fadd float %k3, %ff4
  %k5 = fadd float %k4, %ff5
  %k6 = fadd float %k5, %ff6
  %k7 = fadd float %k6, %ff7
  %k8 = fadd float %k7, %ff8
  %k9 = fadd float %k8, %ff9
  %k10 = fadd float %k9, %ff10
  %k11 = fadd float %k10, %ff11
  %hd = fpext float %h11 to double
  %kd = fpext float %k11 to double
  %t0 = fadd double %q11, %hd
  %t1 = fadd double %t0, %kd
  %ti = fptosi double %t1 to i32
  %st = and i32 %ti, 127
  ret i32 %st
}
