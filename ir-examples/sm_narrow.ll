; 24 narrow values (i1 from compares, i8, i16) live across calls, in three maps of 8 (IDs 150-152)
; and one with all of them at -O2 reachable as spill slots of 1 and 2 bytes (ID 153 repeats 12).
; Exit status: sum & 127.
source_filename = "sm_narrow.ll"

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

@seed = internal global i64 8070450532247928831, align 8

define i32 @main() {
entry:
  %s = load volatile i64, ptr @seed
  %sh0 = lshr i64 %s, 0
  %n0 = icmp ult i64 %sh0, 1000
  %sh1 = lshr i64 %s, 1
  %n1 = trunc i64 %sh1 to i8
  %sh2 = lshr i64 %s, 2
  %n2 = trunc i64 %sh2 to i16
  %sh3 = lshr i64 %s, 3
  %n3 = icmp ult i64 %sh3, 1111
  %sh4 = lshr i64 %s, 4
  %n4 = trunc i64 %sh4 to i8
  %sh5 = lshr i64 %s, 5
  %n5 = trunc i64 %sh5 to i16
  %sh6 = lshr i64 %s, 6
  %n6 = icmp ult i64 %sh6, 1222
  %sh7 = lshr i64 %s, 7
  %n7 = trunc i64 %sh7 to i8
  %sh8 = lshr i64 %s, 8
  %n8 = trunc i64 %sh8 to i16
  %sh9 = lshr i64 %s, 9
  %n9 = icmp ult i64 %sh9, 1333
  %sh10 = lshr i64 %s, 10
  %n10 = trunc i64 %sh10 to i8
  %sh11 = lshr i64 %s, 11
  %n11 = trunc i64 %sh11 to i16
  %sh12 = lshr i64 %s, 12
  %n12 = icmp ult i64 %sh12, 1444
  %sh13 = lshr i64 %s, 13
  %n13 = trunc i64 %sh13 to i8
  %sh14 = lshr i64 %s, 14
  %n14 = trunc i64 %sh14 to i16
  %sh15 = lshr i64 %s, 15
  %n15 = icmp ult i64 %sh15, 1555
  %sh16 = lshr i64 %s, 16
  %n16 = trunc i64 %sh16 to i8
  %sh17 = lshr i64 %s, 17
  %n17 = trunc i64 %sh17 to i16
  %sh18 = lshr i64 %s, 18
  %n18 = icmp ult i64 %sh18, 1666
  %sh19 = lshr i64 %s, 19
  %n19 = trunc i64 %sh19 to i8
  %sh20 = lshr i64 %s, 20
  %n20 = trunc i64 %sh20 to i16
  %sh21 = lshr i64 %s, 21
  %n21 = icmp ult i64 %sh21, 1777
  %sh22 = lshr i64 %s, 22
  %n22 = trunc i64 %sh22 to i8
  %sh23 = lshr i64 %s, 23
  %n23 = trunc i64 %sh23 to i16
  call void @sm_begin(i64 150)
  %sm.b229 = zext i1 %n0 to i64
  call void @sm_val(i64 1, i64 %sm.b229)
  %sm.b230 = zext i8 %n1 to i64
  call void @sm_val(i64 8, i64 %sm.b230)
  %sm.b231 = zext i16 %n2 to i64
  call void @sm_val(i64 16, i64 %sm.b231)
  %sm.b232 = zext i1 %n3 to i64
  call void @sm_val(i64 1, i64 %sm.b232)
  %sm.b233 = zext i8 %n4 to i64
  call void @sm_val(i64 8, i64 %sm.b233)
  %sm.b234 = zext i16 %n5 to i64
  call void @sm_val(i64 16, i64 %sm.b234)
  %sm.b235 = zext i1 %n6 to i64
  call void @sm_val(i64 1, i64 %sm.b235)
  %sm.b236 = zext i8 %n7 to i64
  call void @sm_val(i64 8, i64 %sm.b236)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 150, i32 0, i1 %n0, i8 %n1, i16 %n2, i1 %n3, i8 %n4, i16 %n5, i1 %n6, i8 %n7)
  call void @sm_begin(i64 151)
  %sm.b237 = zext i16 %n8 to i64
  call void @sm_val(i64 16, i64 %sm.b237)
  %sm.b238 = zext i1 %n9 to i64
  call void @sm_val(i64 1, i64 %sm.b238)
  %sm.b239 = zext i8 %n10 to i64
  call void @sm_val(i64 8, i64 %sm.b239)
  %sm.b240 = zext i16 %n11 to i64
  call void @sm_val(i64 16, i64 %sm.b240)
  %sm.b241 = zext i1 %n12 to i64
  call void @sm_val(i64 1, i64 %sm.b241)
  %sm.b242 = zext i8 %n13 to i64
  call void @sm_val(i64 8, i64 %sm.b242)
  %sm.b243 = zext i16 %n14 to i64
  call void @sm_val(i64 16, i64 %sm.b243)
  %sm.b244 = zext i1 %n15 to i64
  call void @sm_val(i64 1, i64 %sm.b244)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 151, i32 0, i16 %n8, i1 %n9, i8 %n10, i16 %n11, i1 %n12, i8 %n13, i16 %n14, i1 %n15)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 152, i32 0, i8 %n16, i16 %n17, i1 %n18, i8 %n19, i16 %n20, i1 %n21, i8 %n22, i16 %n23)
  call void @sm_begin(i64 152)
  %sm.b245 = zext i8 %n16 to i64
  call void @sm_val(i64 8, i64 %sm.b245)
  %sm.b246 = zext i16 %n17 to i64
  call void @sm_val(i64 16, i64 %sm.b246)
  %sm.b247 = zext i1 %n18 to i64
  call void @sm_val(i64 1, i64 %sm.b247)
  %sm.b248 = zext i8 %n19 to i64
  call void @sm_val(i64 8, i64 %sm.b248)
  %sm.b249 = zext i16 %n20 to i64
  call void @sm_val(i64 16, i64 %sm.b249)
  %sm.b250 = zext i1 %n21 to i64
  call void @sm_val(i64 1, i64 %sm.b250)
  %sm.b251 = zext i8 %n22 to i64
  call void @sm_val(i64 8, i64 %sm.b251)
  %sm.b252 = zext i16 %n23 to i64
  call void @sm_val(i64 16, i64 %sm.b252)
  call void @sm_end()
  call void @sm_begin(i64 153)
  %sm.b253 = zext i1 %n6 to i64
  call void @sm_val(i64 1, i64 %sm.b253)
  %sm.b254 = zext i8 %n7 to i64
  call void @sm_val(i64 8, i64 %sm.b254)
  %sm.b255 = zext i16 %n8 to i64
  call void @sm_val(i64 16, i64 %sm.b255)
  %sm.b256 = zext i1 %n9 to i64
  call void @sm_val(i64 1, i64 %sm.b256)
  %sm.b257 = zext i8 %n10 to i64
  call void @sm_val(i64 8, i64 %sm.b257)
  %sm.b258 = zext i16 %n11 to i64
  call void @sm_val(i64 16, i64 %sm.b258)
  %sm.b259 = zext i1 %n12 to i64
  call void @sm_val(i64 1, i64 %sm.b259)
  %sm.b260 = zext i8 %n13 to i64
  call void @sm_val(i64 8, i64 %sm.b260)
  %sm.b261 = zext i16 %n14 to i64
  call void @sm_val(i64 16, i64 %sm.b261)
  %sm.b262 = zext i1 %n15 to i64
  call void @sm_val(i64 1, i64 %sm.b262)
  %sm.b263 = zext i8 %n16 to i64
  call void @sm_val(i64 8, i64 %sm.b263)
  %sm.b264 = zext i16 %n17 to i64
  call void @sm_val(i64 16, i64 %sm.b264)
  call void @sm_end()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 153, i32 0, i1 %n6, i8 %n7, i16 %n8, i1 %n9, i8 %n10, i16 %n11, i1 %n12, i8 %n13, i16 %n14, i1 %n15, i8 %n16, i16 %n17)
  %z0 = zext i1 %n0 to i32
  %z1 = zext i8 %n1 to i32
  %z2 = zext i16 %n2 to i32
  %z3 = zext i1 %n3 to i32
  %z4 = zext i8 %n4 to i32
  %z5 = zext i16 %n5 to i32
  %z6 = zext i1 %n6 to i32
  %z7 = zext i8 %n7 to i32
  %z8 = zext i16 %n8 to i32
  %z9 = zext i1 %n9 to i32
  %z10 = zext i8 %n10 to i32
  %z11 = zext i16 %n11 to i32
  %z12 = zext i1 %n12 to i32
  %z13 = zext i8 %n13 to i32
  %z14 = zext i16 %n14 to i32
  %z15 = zext i1 %n15 to i32
  %z16 = zext i8 %n16 to i32
  %z17 = zext i16 %n17 to i32
  %z18 = zext i1 %n18 to i32
  %z19 = zext i8 %n19 to i32
  %z20 = zext i16 %n20 to i32
  %z21 = zext i1 %n21 to i32
  %z22 = zext i8 %n22 to i32
  %z23 = zext i16 %n23 to i32
  %u0 = add i32 %z0, 0
  %u1 = add i32 %u0, %z1
  %u2 = add i32 %u1, %z2
  %u3 = add i32 %u2, %z3
  %u4 = add i32 %u3, %z4
  %u5 = add i32 %u4, %z5
  %u6 = add i32 %u5, %z6
  %u7 = add i32 %u6, %z7
  %u8 = add i32 %u7, %z8
  %u9 = add i32 %u8, %z9
  %u10 = add i32 %u9, %z10
  %u11 = add i32 %u10, %z11
  %u12 = add i32 %u11, %z12
  %u13 = add i32 %u12, %z13
  %u14 = add i32 %u13, %z14
  %u15 = add i32 %u14, %z15
  %u16 = add i32 %u15, %z16
  %u17 = add i32 %u16, %z17
  %u18 = add i32 %u17, %z18
  %u19 = add i32 %u18, %z19
  %u20 = add i32 %u19, %z20
  %u21 = add i32 %u20, %z21
  %u22 = add i32 %u21, %z22
  %u23 = add i32 %u22, %z23
  %st = and i32 %u23, 127
  ret i32 %st
}
