; Switches: many i32 cases with a default, several cases sharing one target (so the join's phi lists the
; switch block once per edge), cases that jump straight to the join, phis in case targets, i8 switches on
; negative values, sparse i64 cases, and a switch with no cases at all. Exit status: checksum & 0x7f.
source_filename = "switch_phis.ll"

declare i32 @putchar(i32)

define internal void @print_i64(i64 %v) {
entry:
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %digits
minus:
  call i32 @putchar(i32 45)
  br label %digits
digits:
  ; 0 - INT64_MIN wraps to itself, which is the right magnitude read unsigned.
  %mag0 = sub i64 0, %v
  %mag = select i1 %neg, i64 %mag0, i64 %v
  call void @print_u64(i64 %mag)
  ret void
}

define internal void @print_u64(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @print_u64(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

define internal i32 @classify(i32 %x) {
entry:
  switch i32 %x, label %other [
    i32 0, label %zero
    i32 1, label %small
    i32 2, label %small
    i32 3, label %small
    i32 4, label %join
    i32 5, label %join
    i32 6, label %six
    i32 7, label %seven
    i32 8, label %eight
    i32 9, label %nine
    i32 10, label %ten
    i32 100, label %hundred
    i32 -1, label %minus_one
    i32 1000, label %join
  ]
zero:
  br label %join
small:
  ; Three switch edges reach this block; its value depends on x.
  %sm = mul i32 %x, 11
  br label %join
six:
  br label %join
seven:
  br label %join
eight:
  %e = shl i32 %x, 2
  br label %join
nine:
  br label %join
ten:
  br label %join
hundred:
  br label %join
minus_one:
  br label %join
other:
  %o = sub i32 0, %x
  br label %join
join:
  ; %entry appears three times: once per case (4, 5, 1000) that jumps here directly.
  %r = phi i32 [ 1, %zero ], [ %sm, %small ], [ 40, %entry ], [ 40, %entry ], [ 40, %entry ],
               [ 66, %six ], [ 77, %seven ], [ %e, %eight ], [ 99, %nine ], [ 1010, %ten ],
               [ 10000, %hundred ], [ -7, %minus_one ], [ %o, %other ]
  ret i32 %r
}

; Switch on i8 with negative case values and a phi in the default target.
define internal i8 @sign_bucket(i8 %x) {
entry:
  %half = ashr i8 %x, 5
  switch i8 %half, label %mid [
    i8 -4, label %very_neg
    i8 -3, label %neg
    i8 -2, label %neg
    i8 3, label %very_pos
  ]
very_neg:
  br label %done
neg:
  %nn = add i8 %half, 100
  br label %done
very_pos:
  br label %done
mid:
  %m = phi i8 [ %half, %entry ]
  %m2 = mul i8 %m, 3
  br label %done
done:
  %r = phi i8 [ -100, %very_neg ], [ %nn, %neg ], [ 120, %very_pos ], [ %m2, %mid ]
  ret i8 %r
}

; Sparse i64 cases far apart, which llc cannot turn into one jump table.
define internal i64 @sparse(i64 %x) {
entry:
  switch i64 %x, label %def [
    i64 -9223372036854775808, label %a
    i64 4294967296, label %b
    i64 17, label %c
    i64 9223372036854775807, label %d
  ]
a:
  ret i64 1
b:
  ret i64 2
c:
  ret i64 3
d:
  ret i64 4
def:
  ret i64 0
}

; A switch with only a default.
define internal i32 @only_default(i32 %x) {
entry:
  switch i32 %x, label %d []
d:
  %r = add i32 %x, 5
  ret i32 %r
}

define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ -3, %entry ], [ %i1, %loop_end ]
  %sum = phi i64 [ 0, %entry ], [ %sum1, %loop_end ]
  %c = call i32 @classify(i32 %i)
  %c64 = sext i32 %c to i64
  call void @print_i64(i64 %c64)
  call i32 @putchar(i32 32)
  ; A switch inside the loop body whose targets all reach the latch, carrying a phi.
  %m3 = urem i32 %i, 3
  switch i32 %m3, label %k_other [
    i32 0, label %k0
    i32 1, label %k1
  ]
k0:
  br label %loop_end
k1:
  %t1 = mul i64 %c64, 3
  br label %loop_end
k_other:
  %t2 = xor i64 %c64, 255
  br label %loop_end
loop_end:
  %contrib = phi i64 [ %c64, %k0 ], [ %t1, %k1 ], [ %t2, %k_other ]
  %sum1 = add i64 %sum, %contrib
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, 14
  br i1 %more, label %loop, label %tail
tail:
  %c100 = call i32 @classify(i32 100)
  %c1000 = call i32 @classify(i32 1000)
  %cbig = call i32 @classify(i32 123456)
  %x1 = add i32 %c100, %c1000
  %x2 = add i32 %x1, %cbig
  %x64 = sext i32 %x2 to i64
  call i32 @putchar(i32 10)
  call void @print_i64(i64 %x64)
  call i32 @putchar(i32 10)
  br label %bytes
bytes:
  %b = phi i32 [ 0, %tail ], [ %b1, %bytes ]
  %bacc = phi i64 [ 0, %tail ], [ %bacc1, %bytes ]
  %bt = trunc i32 %b to i8
  %sb = call i8 @sign_bucket(i8 %bt)
  %sb64 = sext i8 %sb to i64
  %bmul = mul i64 %bacc, 31
  %bacc1 = add i64 %bmul, %sb64
  %b1 = add i32 %b, 7
  %bmore = icmp ult i32 %b1, 256
  br i1 %bmore, label %bytes, label %fin
fin:
  call void @print_i64(i64 %bacc1)
  call i32 @putchar(i32 10)
  %s1 = call i64 @sparse(i64 -9223372036854775808)
  %s2 = call i64 @sparse(i64 4294967296)
  %s3 = call i64 @sparse(i64 17)
  %s4 = call i64 @sparse(i64 9223372036854775807)
  %s5 = call i64 @sparse(i64 18)
  %sa = mul i64 %s1, 10000
  %sb2 = mul i64 %s2, 1000
  %sc = mul i64 %s3, 100
  %sd = mul i64 %s4, 10
  %q1 = add i64 %sa, %sb2
  %q2 = add i64 %q1, %sc
  %q3 = add i64 %q2, %sd
  %q4 = add i64 %q3, %s5
  call void @print_i64(i64 %q4)
  call i32 @putchar(i32 10)
  %od = call i32 @only_default(i32 37)
  %od64 = zext i32 %od to i64
  call void @print_i64(i64 %od64)
  call i32 @putchar(i32 10)
  %all0 = add i64 %sum1, %bacc1
  %all1 = add i64 %all0, %q4
  %all = trunc i64 %all1 to i32
  %status = and i32 %all, 127
  ret i32 %status
}
