; Every icmp predicate (eq ne ugt uge ult ule sgt sge slt sle) on i8, i16, i32 and i64 over all ordered
; pairs of boundary values (min, -1, 0, 1, max), where signed and unsigned orders disagree; icmp on
; pointers into one array and against null; and select on i1, i8, i16, i32, i64, float, double and ptr.
; Each comparison row prints one digit per predicate. Exit status: the count of true comparisons & 0x7f.
source_filename = "icmp_select.ll"

@v_i8 = internal global [5 x i8] [i8 -128, i8 -1, i8 0, i8 1, i8 127]
@v_i16 = internal global [4 x i16] [i16 -32768, i16 -2, i16 300, i16 32767]
@v_i32 = internal global [4 x i32] [i32 -2147483648, i32 -5, i32 7, i32 2147483647]
@v_i64 = internal global [4 x i64] [i64 -9223372036854775808, i64 -1, i64 42, i64 9223372036854775807]
@arr = internal global [8 x i32] zeroinitializer

declare i32 @putchar(i32)

define internal i32 @row_i8(i8 %a, i8 %b) {
entry:
  %c0 = icmp eq i8 %a, %b
  %z0 = zext i1 %c0 to i32
  %d0 = add i32 %z0, 48
  call i32 @putchar(i32 %d0)
  %n0 = add i32 0, %z0
  %c1 = icmp ne i8 %a, %b
  %z1 = zext i1 %c1 to i32
  %d1 = add i32 %z1, 48
  call i32 @putchar(i32 %d1)
  %n1 = add i32 %n0, %z1
  %c2 = icmp ugt i8 %a, %b
  %z2 = zext i1 %c2 to i32
  %d2 = add i32 %z2, 48
  call i32 @putchar(i32 %d2)
  %n2 = add i32 %n1, %z2
  %c3 = icmp uge i8 %a, %b
  %z3 = zext i1 %c3 to i32
  %d3 = add i32 %z3, 48
  call i32 @putchar(i32 %d3)
  %n3 = add i32 %n2, %z3
  %c4 = icmp ult i8 %a, %b
  %z4 = zext i1 %c4 to i32
  %d4 = add i32 %z4, 48
  call i32 @putchar(i32 %d4)
  %n4 = add i32 %n3, %z4
  %c5 = icmp ule i8 %a, %b
  %z5 = zext i1 %c5 to i32
  %d5 = add i32 %z5, 48
  call i32 @putchar(i32 %d5)
  %n5 = add i32 %n4, %z5
  %c6 = icmp sgt i8 %a, %b
  %z6 = zext i1 %c6 to i32
  %d6 = add i32 %z6, 48
  call i32 @putchar(i32 %d6)
  %n6 = add i32 %n5, %z6
  %c7 = icmp sge i8 %a, %b
  %z7 = zext i1 %c7 to i32
  %d7 = add i32 %z7, 48
  call i32 @putchar(i32 %d7)
  %n7 = add i32 %n6, %z7
  %c8 = icmp slt i8 %a, %b
  %z8 = zext i1 %c8 to i32
  %d8 = add i32 %z8, 48
  call i32 @putchar(i32 %d8)
  %n8 = add i32 %n7, %z8
  %c9 = icmp sle i8 %a, %b
  %z9 = zext i1 %c9 to i32
  %d9 = add i32 %z9, 48
  call i32 @putchar(i32 %d9)
  %n9 = add i32 %n8, %z9
  call i32 @putchar(i32 32)
  ret i32 %n9
}

define internal i32 @row_i16(i16 %a, i16 %b) {
entry:
  %c0 = icmp eq i16 %a, %b
  %z0 = zext i1 %c0 to i32
  %d0 = add i32 %z0, 48
  call i32 @putchar(i32 %d0)
  %n0 = add i32 0, %z0
  %c1 = icmp ne i16 %a, %b
  %z1 = zext i1 %c1 to i32
  %d1 = add i32 %z1, 48
  call i32 @putchar(i32 %d1)
  %n1 = add i32 %n0, %z1
  %c2 = icmp ugt i16 %a, %b
  %z2 = zext i1 %c2 to i32
  %d2 = add i32 %z2, 48
  call i32 @putchar(i32 %d2)
  %n2 = add i32 %n1, %z2
  %c3 = icmp uge i16 %a, %b
  %z3 = zext i1 %c3 to i32
  %d3 = add i32 %z3, 48
  call i32 @putchar(i32 %d3)
  %n3 = add i32 %n2, %z3
  %c4 = icmp ult i16 %a, %b
  %z4 = zext i1 %c4 to i32
  %d4 = add i32 %z4, 48
  call i32 @putchar(i32 %d4)
  %n4 = add i32 %n3, %z4
  %c5 = icmp ule i16 %a, %b
  %z5 = zext i1 %c5 to i32
  %d5 = add i32 %z5, 48
  call i32 @putchar(i32 %d5)
  %n5 = add i32 %n4, %z5
  %c6 = icmp sgt i16 %a, %b
  %z6 = zext i1 %c6 to i32
  %d6 = add i32 %z6, 48
  call i32 @putchar(i32 %d6)
  %n6 = add i32 %n5, %z6
  %c7 = icmp sge i16 %a, %b
  %z7 = zext i1 %c7 to i32
  %d7 = add i32 %z7, 48
  call i32 @putchar(i32 %d7)
  %n7 = add i32 %n6, %z7
  %c8 = icmp slt i16 %a, %b
  %z8 = zext i1 %c8 to i32
  %d8 = add i32 %z8, 48
  call i32 @putchar(i32 %d8)
  %n8 = add i32 %n7, %z8
  %c9 = icmp sle i16 %a, %b
  %z9 = zext i1 %c9 to i32
  %d9 = add i32 %z9, 48
  call i32 @putchar(i32 %d9)
  %n9 = add i32 %n8, %z9
  call i32 @putchar(i32 32)
  ret i32 %n9
}

define internal i32 @row_i32(i32 %a, i32 %b) {
entry:
  %c0 = icmp eq i32 %a, %b
  %z0 = zext i1 %c0 to i32
  %d0 = add i32 %z0, 48
  call i32 @putchar(i32 %d0)
  %n0 = add i32 0, %z0
  %c1 = icmp ne i32 %a, %b
  %z1 = zext i1 %c1 to i32
  %d1 = add i32 %z1, 48
  call i32 @putchar(i32 %d1)
  %n1 = add i32 %n0, %z1
  %c2 = icmp ugt i32 %a, %b
  %z2 = zext i1 %c2 to i32
  %d2 = add i32 %z2, 48
  call i32 @putchar(i32 %d2)
  %n2 = add i32 %n1, %z2
  %c3 = icmp uge i32 %a, %b
  %z3 = zext i1 %c3 to i32
  %d3 = add i32 %z3, 48
  call i32 @putchar(i32 %d3)
  %n3 = add i32 %n2, %z3
  %c4 = icmp ult i32 %a, %b
  %z4 = zext i1 %c4 to i32
  %d4 = add i32 %z4, 48
  call i32 @putchar(i32 %d4)
  %n4 = add i32 %n3, %z4
  %c5 = icmp ule i32 %a, %b
  %z5 = zext i1 %c5 to i32
  %d5 = add i32 %z5, 48
  call i32 @putchar(i32 %d5)
  %n5 = add i32 %n4, %z5
  %c6 = icmp sgt i32 %a, %b
  %z6 = zext i1 %c6 to i32
  %d6 = add i32 %z6, 48
  call i32 @putchar(i32 %d6)
  %n6 = add i32 %n5, %z6
  %c7 = icmp sge i32 %a, %b
  %z7 = zext i1 %c7 to i32
  %d7 = add i32 %z7, 48
  call i32 @putchar(i32 %d7)
  %n7 = add i32 %n6, %z7
  %c8 = icmp slt i32 %a, %b
  %z8 = zext i1 %c8 to i32
  %d8 = add i32 %z8, 48
  call i32 @putchar(i32 %d8)
  %n8 = add i32 %n7, %z8
  %c9 = icmp sle i32 %a, %b
  %z9 = zext i1 %c9 to i32
  %d9 = add i32 %z9, 48
  call i32 @putchar(i32 %d9)
  %n9 = add i32 %n8, %z9
  call i32 @putchar(i32 32)
  ret i32 %n9
}

define internal i32 @row_i64(i64 %a, i64 %b) {
entry:
  %c0 = icmp eq i64 %a, %b
  %z0 = zext i1 %c0 to i32
  %d0 = add i32 %z0, 48
  call i32 @putchar(i32 %d0)
  %n0 = add i32 0, %z0
  %c1 = icmp ne i64 %a, %b
  %z1 = zext i1 %c1 to i32
  %d1 = add i32 %z1, 48
  call i32 @putchar(i32 %d1)
  %n1 = add i32 %n0, %z1
  %c2 = icmp ugt i64 %a, %b
  %z2 = zext i1 %c2 to i32
  %d2 = add i32 %z2, 48
  call i32 @putchar(i32 %d2)
  %n2 = add i32 %n1, %z2
  %c3 = icmp uge i64 %a, %b
  %z3 = zext i1 %c3 to i32
  %d3 = add i32 %z3, 48
  call i32 @putchar(i32 %d3)
  %n3 = add i32 %n2, %z3
  %c4 = icmp ult i64 %a, %b
  %z4 = zext i1 %c4 to i32
  %d4 = add i32 %z4, 48
  call i32 @putchar(i32 %d4)
  %n4 = add i32 %n3, %z4
  %c5 = icmp ule i64 %a, %b
  %z5 = zext i1 %c5 to i32
  %d5 = add i32 %z5, 48
  call i32 @putchar(i32 %d5)
  %n5 = add i32 %n4, %z5
  %c6 = icmp sgt i64 %a, %b
  %z6 = zext i1 %c6 to i32
  %d6 = add i32 %z6, 48
  call i32 @putchar(i32 %d6)
  %n6 = add i32 %n5, %z6
  %c7 = icmp sge i64 %a, %b
  %z7 = zext i1 %c7 to i32
  %d7 = add i32 %z7, 48
  call i32 @putchar(i32 %d7)
  %n7 = add i32 %n6, %z7
  %c8 = icmp slt i64 %a, %b
  %z8 = zext i1 %c8 to i32
  %d8 = add i32 %z8, 48
  call i32 @putchar(i32 %d8)
  %n8 = add i32 %n7, %z8
  %c9 = icmp sle i64 %a, %b
  %z9 = zext i1 %c9 to i32
  %d9 = add i32 %z9, 48
  call i32 @putchar(i32 %d9)
  %n9 = add i32 %n8, %z9
  call i32 @putchar(i32 32)
  ret i32 %n9
}

; Runs the row for every ordered pair (i, j) of the global table of type T and returns the count.
define internal i32 @all_i8() {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i1, %outer_end ]
  %acc = phi i32 [ 0, %entry ], [ %acc_in, %outer_end ]
  %pa = getelementptr inbounds [5 x i8], ptr @v_i8, i64 0, i64 %i
  %a = load i8, ptr %pa
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j1, %inner ]
  %acc2 = phi i32 [ %acc, %outer ], [ %acc_in, %inner ]
  %pb = getelementptr inbounds [5 x i8], ptr @v_i8, i64 0, i64 %j
  %b = load i8, ptr %pb
  %r = call i32 @row_i8(i8 %a, i8 %b)
  %acc_in = add i32 %acc2, %r
  %j1 = add i64 %j, 1
  %jm = icmp ult i64 %j1, 5
  br i1 %jm, label %inner, label %outer_end
outer_end:
  call i32 @putchar(i32 10)
  %i1 = add i64 %i, 1
  %im = icmp ult i64 %i1, 5
  br i1 %im, label %outer, label %exit
exit:
  ret i32 %acc_in
}

define internal i32 @all_i16() {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i1, %outer_end ]
  %acc = phi i32 [ 0, %entry ], [ %acc_in, %outer_end ]
  %pa = getelementptr inbounds [4 x i16], ptr @v_i16, i64 0, i64 %i
  %a = load i16, ptr %pa
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j1, %inner ]
  %acc2 = phi i32 [ %acc, %outer ], [ %acc_in, %inner ]
  %pb = getelementptr inbounds [4 x i16], ptr @v_i16, i64 0, i64 %j
  %b = load i16, ptr %pb
  %r = call i32 @row_i16(i16 %a, i16 %b)
  %acc_in = add i32 %acc2, %r
  %j1 = add i64 %j, 1
  %jm = icmp ult i64 %j1, 4
  br i1 %jm, label %inner, label %outer_end
outer_end:
  call i32 @putchar(i32 10)
  %i1 = add i64 %i, 1
  %im = icmp ult i64 %i1, 4
  br i1 %im, label %outer, label %exit
exit:
  ret i32 %acc_in
}

define internal i32 @all_i32() {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i1, %outer_end ]
  %acc = phi i32 [ 0, %entry ], [ %acc_in, %outer_end ]
  %pa = getelementptr inbounds [4 x i32], ptr @v_i32, i64 0, i64 %i
  %a = load i32, ptr %pa
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j1, %inner ]
  %acc2 = phi i32 [ %acc, %outer ], [ %acc_in, %inner ]
  %pb = getelementptr inbounds [4 x i32], ptr @v_i32, i64 0, i64 %j
  %b = load i32, ptr %pb
  %r = call i32 @row_i32(i32 %a, i32 %b)
  %acc_in = add i32 %acc2, %r
  %j1 = add i64 %j, 1
  %jm = icmp ult i64 %j1, 4
  br i1 %jm, label %inner, label %outer_end
outer_end:
  call i32 @putchar(i32 10)
  %i1 = add i64 %i, 1
  %im = icmp ult i64 %i1, 4
  br i1 %im, label %outer, label %exit
exit:
  ret i32 %acc_in
}

define internal i32 @all_i64() {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i1, %outer_end ]
  %acc = phi i32 [ 0, %entry ], [ %acc_in, %outer_end ]
  %pa = getelementptr inbounds [4 x i64], ptr @v_i64, i64 0, i64 %i
  %a = load i64, ptr %pa
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j1, %inner ]
  %acc2 = phi i32 [ %acc, %outer ], [ %acc_in, %inner ]
  %pb = getelementptr inbounds [4 x i64], ptr @v_i64, i64 0, i64 %j
  %b = load i64, ptr %pb
  %r = call i32 @row_i64(i64 %a, i64 %b)
  %acc_in = add i32 %acc2, %r
  %j1 = add i64 %j, 1
  %jm = icmp ult i64 %j1, 4
  br i1 %jm, label %inner, label %outer_end
outer_end:
  call i32 @putchar(i32 10)
  %i1 = add i64 %i, 1
  %im = icmp ult i64 %i1, 4
  br i1 %im, label %outer, label %exit
exit:
  ret i32 %acc_in
}

define i32 @main() {
entry:
  %n8 = call i32 @all_i8()
  %n16 = call i32 @all_i16()
  %n32 = call i32 @all_i32()
  %n64 = call i32 @all_i64()
  %s1 = add i32 %n8, %n16
  %s2 = add i32 %s1, %n32
  %s3 = add i32 %s2, %n64
  ; Pointers into one array compare by address; null is below every object.
  %p2 = getelementptr inbounds [8 x i32], ptr @arr, i64 0, i64 2
  %p5 = getelementptr inbounds [8 x i32], ptr @arr, i64 0, i64 5
  %pa = icmp ult ptr %p2, %p5
  %pb = icmp ugt ptr %p2, %p5
  %pc = icmp eq ptr %p5, %p2
  %pd = icmp ne ptr %p2, null
  %pe = icmp eq ptr null, null
  %pf = icmp ule ptr %p5, %p5
  %pg = icmp uge ptr null, %p2
  %bits = call i32 @pack7(i1 %pa, i1 %pb, i1 %pc, i1 %pd, i1 %pe, i1 %pf, i1 %pg)
  call void @print_bits(i32 %bits, i32 7)
  ; select over every value type.
  %c = icmp slt i32 %n8, %n16
  %nc = xor i1 %c, true
  %sa = select i1 %c, i8 -3, i8 9
  %sb = select i1 %nc, i16 1000, i16 -1000
  %sc = select i1 %c, i32 %n32, i32 %n64
  %sd = select i1 %nc, i64 -1, i64 77
  %se = select i1 %c, float 1.5, float -2.5
  %sf = select i1 %nc, double 0x3FF8000000000000, double 6.25
  %sg = select i1 %c, ptr %p5, ptr %p2
  %sh = select i1 %c, i1 %pb, i1 %pa
  %wa = sext i8 %sa to i32
  %wb = sext i16 %sb to i32
  %wd = trunc i64 %sd to i32
  %we = fptosi float %se to i32
  %wf0 = fmul double %sf, 4.0
  %wf = fptosi double %wf0 to i32
  store i32 11, ptr %sg
  %wg = load i32, ptr %p5
  %wh = zext i1 %sh to i32
  %t1 = add i32 %wa, %wb
  %t2 = add i32 %t1, %sc
  %t3 = add i32 %t2, %wd
  %t4 = add i32 %t3, %we
  %t5 = add i32 %t4, %wf
  %t6 = add i32 %t5, %wg
  %t7 = add i32 %t6, %wh
  %t7n = icmp slt i32 %t7, 0
  %t7m = sub i32 0, %t7
  %t7a = select i1 %t7n, i32 %t7m, i32 %t7
  call void @print_bits(i32 %t7a, i32 16)
  %st = and i32 %s3, 127
  ret i32 %st
}

; Packs seven flags into the low bits of an i32, first flag highest.
define internal i32 @pack7(i1 %a, i1 %b, i1 %c, i1 %d, i1 %e, i1 %f, i1 %g) {
  %za = zext i1 %a to i32
  %zb = zext i1 %b to i32
  %zc = zext i1 %c to i32
  %zd = zext i1 %d to i32
  %ze = zext i1 %e to i32
  %zf = zext i1 %f to i32
  %zg = zext i1 %g to i32
  %s1 = shl i32 %za, 6
  %s2 = shl i32 %zb, 5
  %s3 = shl i32 %zc, 4
  %s4 = shl i32 %zd, 3
  %s5 = shl i32 %ze, 2
  %s6 = shl i32 %zf, 1
  %o1 = or i32 %s1, %s2
  %o2 = or i32 %o1, %s3
  %o3 = or i32 %o2, %s4
  %o4 = or i32 %o3, %s5
  %o5 = or i32 %o4, %s6
  %o6 = or i32 %o5, %zg
  ret i32 %o6
}

; Prints the low n bits of v, most significant first, then a newline.
define internal void @print_bits(i32 %v, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ %n, %entry ], [ %i1, %loop ]
  %i1 = sub i32 %i, 1
  %sh = lshr i32 %v, %i1
  %bit = and i32 %sh, 1
  %ch = add i32 %bit, 48
  call i32 @putchar(i32 %ch)
  %more = icmp ne i32 %i1, 0
  br i1 %more, label %loop, label %exit
exit:
  call i32 @putchar(i32 10)
  ret void
}
