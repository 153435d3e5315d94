; 38 simultaneously live values (34 i64, 4 i32), more than either target has registers for, all live
; across four stack maps and the calls that announce them: some sit in callee-saved registers, the
; rest are spilled (Indirect locations). ID 10 is announced after the map, the others before. llc-19
; -O0 cannot give a stack map more than 13 register operands on x86-64 ("ran out of registers"), so
; each map records at most 12 of the values; ID 13 adds 23 constants (35 locations).
; Exit status: sum & 127.
source_filename = "sm_spill_many.ll"

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

@seed = internal global i64 987654321, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %m0 = mul i64 %s, 13
  %v0 = xor i64 %m0, 1
  %m1 = mul i64 %s, 7932
  %v1 = xor i64 %m1, 104730
  %m2 = mul i64 %s, 15851
  %v2 = xor i64 %m2, 209459
  %m3 = mul i64 %s, 23770
  %v3 = xor i64 %m3, 314188
  %m4 = mul i64 %s, 31689
  %v4 = xor i64 %m4, 418917
  %m5 = mul i64 %s, 39608
  %v5 = xor i64 %m5, 523646
  %m6 = mul i64 %s, 47527
  %v6 = xor i64 %m6, 628375
  %m7 = mul i64 %s, 55446
  %v7 = xor i64 %m7, 733104
  %m8 = mul i64 %s, 63365
  %v8 = xor i64 %m8, 837833
  %m9 = mul i64 %s, 71284
  %v9 = xor i64 %m9, 942562
  %m10 = mul i64 %s, 79203
  %v10 = xor i64 %m10, 1047291
  %m11 = mul i64 %s, 87122
  %v11 = xor i64 %m11, 1152020
  %m12 = mul i64 %s, 95041
  %v12 = xor i64 %m12, 1256749
  %m13 = mul i64 %s, 102960
  %v13 = xor i64 %m13, 1361478
  %m14 = mul i64 %s, 110879
  %v14 = xor i64 %m14, 1466207
  %m15 = mul i64 %s, 118798
  %v15 = xor i64 %m15, 1570936
  %m16 = mul i64 %s, 126717
  %v16 = xor i64 %m16, 1675665
  %m17 = mul i64 %s, 134636
  %v17 = xor i64 %m17, 1780394
  %m18 = mul i64 %s, 142555
  %v18 = xor i64 %m18, 1885123
  %m19 = mul i64 %s, 150474
  %v19 = xor i64 %m19, 1989852
  %m20 = mul i64 %s, 158393
  %v20 = xor i64 %m20, 2094581
  %m21 = mul i64 %s, 166312
  %v21 = xor i64 %m21, 2199310
  %m22 = mul i64 %s, 174231
  %v22 = xor i64 %m22, 2304039
  %m23 = mul i64 %s, 182150
  %v23 = xor i64 %m23, 2408768
  %m24 = mul i64 %s, 190069
  %v24 = xor i64 %m24, 2513497
  %m25 = mul i64 %s, 197988
  %v25 = xor i64 %m25, 2618226
  %m26 = mul i64 %s, 205907
  %v26 = xor i64 %m26, 2722955
  %m27 = mul i64 %s, 213826
  %v27 = xor i64 %m27, 2827684
  %m28 = mul i64 %s, 221745
  %v28 = xor i64 %m28, 2932413
  %m29 = mul i64 %s, 229664
  %v29 = xor i64 %m29, 3037142
  %m30 = mul i64 %s, 237583
  %v30 = xor i64 %m30, 3141871
  %m31 = mul i64 %s, 245502
  %v31 = xor i64 %m31, 3246600
  %m32 = mul i64 %s, 253421
  %v32 = xor i64 %m32, 3351329
  %m33 = mul i64 %s, 261340
  %v33 = xor i64 %m33, 3456058
  %w0 = trunc i64 %v0 to i32
  %w1 = trunc i64 %v5 to i32
  %w2 = trunc i64 %v10 to i32
  %w3 = trunc i64 %v15 to i32
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 10, i32 0, i64 %v0, i64 %v1, i64 %v2, i64 %v3, i64 %v4, i64 %v5, i64 %v6, i64 %v7, i64 %v8, i64 %v9, i64 %v10, i64 %v11)
  call void @sm_begin(i64 10)
  call void @sm_val(i64 64, i64 %v0)
  call void @sm_val(i64 64, i64 %v1)
  call void @sm_val(i64 64, i64 %v2)
  call void @sm_val(i64 64, i64 %v3)
  call void @sm_val(i64 64, i64 %v4)
  call void @sm_val(i64 64, i64 %v5)
  call void @sm_val(i64 64, i64 %v6)
  call void @sm_val(i64 64, i64 %v7)
  call void @sm_val(i64 64, i64 %v8)
  call void @sm_val(i64 64, i64 %v9)
  call void @sm_val(i64 64, i64 %v10)
  call void @sm_val(i64 64, i64 %v11)
  call void @sm_end()
  call void @sm_begin(i64 11)
  call void @sm_val(i64 64, i64 %v23)
  call void @sm_val(i64 64, i64 %v22)
  call void @sm_val(i64 64, i64 %v21)
  call void @sm_val(i64 64, i64 %v20)
  call void @sm_val(i64 64, i64 %v19)
  call void @sm_val(i64 64, i64 %v18)
  call void @sm_val(i64 64, i64 %v17)
  call void @sm_val(i64 64, i64 %v16)
  call void @sm_val(i64 64, i64 %v15)
  call void @sm_val(i64 64, i64 %v14)
  call void @sm_val(i64 64, i64 %v13)
  call void @sm_val(i64 64, i64 %v12)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 11, i32 8, i64 %v23, i64 %v22, i64 %v21, i64 %v20, i64 %v19, i64 %v18, i64 %v17, i64 %v16, i64 %v15, i64 %v14, i64 %v13, i64 %v12)
  call void @sm_begin(i64 12)
  call void @sm_val(i64 64, i64 %v24)
  call void @sm_val(i64 64, i64 %v25)
  call void @sm_val(i64 64, i64 %v26)
  call void @sm_val(i64 64, i64 %v27)
  call void @sm_val(i64 64, i64 %v28)
  call void @sm_val(i64 64, i64 %v29)
  call void @sm_val(i64 64, i64 %v30)
  call void @sm_val(i64 64, i64 %v31)
  call void @sm_val(i64 64, i64 %v32)
  call void @sm_val(i64 64, i64 %v33)
  %sm.b51 = zext i32 %w0 to i64
  call void @sm_val(i64 32, i64 %sm.b51)
  %sm.b52 = zext i32 %w1 to i64
  call void @sm_val(i64 32, i64 %sm.b52)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 12, i32 0, i64 %v24, i64 %v25, i64 %v26, i64 %v27, i64 %v28, i64 %v29, i64 %v30, i64 %v31, i64 %v32, i64 %v33, i32 %w0, i32 %w1)
  call void @sm_begin(i64 13)
  %sm.b53 = zext i32 %w2 to i64
  call void @sm_val(i64 32, i64 %sm.b53)
  %sm.b54 = zext i32 %w3 to i64
  call void @sm_val(i64 32, i64 %sm.b54)
  call void @sm_val(i64 64, i64 %v0)
  call void @sm_val(i64 64, i64 %v1)
  call void @sm_val(i64 64, i64 %v2)
  call void @sm_val(i64 64, i64 %v3)
  call void @sm_val(i64 64, i64 %v4)
  call void @sm_val(i64 64, i64 %v5)
  call void @sm_val(i64 64, i64 %v6)
  call void @sm_val(i64 64, i64 %v7)
  call void @sm_val(i64 64, i64 %v8)
  call void @sm_val(i64 64, i64 %v9)
  call void @sm_val(i64 64, i64 0)
  call void @sm_val(i64 64, i64 1)
  call void @sm_val(i64 64, i64 18446744073709551615)
  call void @sm_val(i64 64, i64 7)
  call void @sm_val(i64 64, i64 4294967296)
  call void @sm_val(i64 64, i64 18446744071562067968)
  call void @sm_val(i64 64, i64 2147483647)
  call void @sm_val(i64 64, i64 4294967296)
  call void @sm_val(i64 64, i64 123456789012)
  call void @sm_val(i64 32, i64 5)
  call void @sm_val(i64 32, i64 4294967291)
  call void @sm_val(i64 32, i64 65536)
  call void @sm_val(i64 8, i64 128)
  call void @sm_val(i64 8, i64 127)
  call void @sm_val(i64 8, i64 1)
  call void @sm_val(i64 16, i64 65535)
  call void @sm_val(i64 16, i64 300)
  call void @sm_val(i64 16, i64 32767)
  call void @sm_val(i64 16, i64 32768)
  call void @sm_val(i64 16, i64 9)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 13, i32 16, i32 %w2, i32 %w3, i64 %v0, i64 %v1, i64 %v2, i64 %v3, i64 %v4, i64 %v5, i64 %v6, i64 %v7, i64 %v8, i64 %v9, i64 0, i64 1, i64 -1, i64 7, i64 4294967296, i64 -2147483648, i64 2147483647, i64 4294967296, i64 123456789012, i32 5, i32 -5, i32 65536, i8 -128, i8 127, i8 1, i16 -1, i16 300, i16 32767, i16 -32768, i16 9)
  %sum0 = add i64 %v0, 0
  %sum1 = add i64 %sum0, %v1
  %sum2 = add i64 %sum1, %v2
  %sum3 = add i64 %sum2, %v3
  %sum4 = add i64 %sum3, %v4
  %sum5 = add i64 %sum4, %v5
  %sum6 = add i64 %sum5, %v6
  %sum7 = add i64 %sum6, %v7
  %sum8 = add i64 %sum7, %v8
  %sum9 = add i64 %sum8, %v9
  %sum10 = add i64 %sum9, %v10
  %sum11 = add i64 %sum10, %v11
  %sum12 = add i64 %sum11, %v12
  %sum13 = add i64 %sum12, %v13
  %sum14 = add i64 %sum13, %v14
  %sum15 = add i64 %sum14, %v15
  %sum16 = add i64 %sum15, %v16
  %sum17 = add i64 %sum16, %v17
  %sum18 = add i64 %sum17, %v18
  %sum19 = add i64 %sum18, %v19
  %sum20 = add i64 %sum19, %v20
  %sum21 = add i64 %sum20, %v21
  %sum22 = add i64 %sum21, %v22
  %sum23 = add i64 %sum22, %v23
  %sum24 = add i64 %sum23, %v24
  %sum25 = add i64 %sum24, %v25
  %sum26 = add i64 %sum25, %v26
  %sum27 = add i64 %sum26, %v27
  %sum28 = add i64 %sum27, %v28
  %sum29 = add i64 %sum28, %v29
  %sum30 = add i64 %sum29, %v30
  %sum31 = add i64 %sum30, %v31
  %sum32 = add i64 %sum31, %v32
  %sum33 = add i64 %sum32, %v33
  %w01 = add i32 %w0, %w1
  %w23 = add i32 %w2, %w3
  %ws = add i32 %w01, %w23
  %t = trunc i64 %sum33 to i32
  %tw = add i32 %t, %ws
  %st = and i32 %tw, 127
  ret i32 %st
}
