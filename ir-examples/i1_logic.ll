; i1 as a value: and/or/xor truth tables, xor with true as not, zext i1 -> 1 and sext i1 -> -1 at
; several widths, i1 arithmetic (add/sub/mul wrap modulo 2), i1 parameters, return values and phis,
; i1 stored to and loaded from memory, trunc to i1 (low bit), icmp on i1 (false < true unsigned,
; true = -1 < false signed), and short-circuit control flow. Exit status: flags packed as 0b1011 = 11.
source_filename = "i1_logic.ll"

@flags = internal global [4 x i1] [i1 false, i1 true, i1 true, i1 false]

declare i32 @putchar(i32)

define internal void @bit(i1 %b) {
  %z = zext i1 %b to i32
  %c = add i32 %z, 48
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @num(i64 %v) {
entry:
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %digit
minus:
  call i32 @putchar(i32 45)
  br label %digit
digit:
  ; Only single-digit magnitudes are printed here.
  %mag0 = sub i64 0, %v
  %mag = select i1 %neg, i64 %mag0, i64 %v
  %m32 = trunc i64 %mag to i32
  %c = add i32 %m32, 48
  call i32 @putchar(i32 %c)
  call i32 @putchar(i32 32)
  ret void
}

; Majority of three, with i1 in and out.
define internal i1 @majority(i1 %a, i1 %b, i1 %c) {
  %ab = and i1 %a, %b
  %bc = and i1 %b, %c
  %ac = and i1 %a, %c
  %o1 = or i1 %ab, %bc
  %o2 = or i1 %o1, %ac
  ret i1 %o2
}

; Parity of the low n bits of x, carried in an i1 phi.
define internal i1 @parity(i32 %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %p = phi i1 [ false, %entry ], [ %p1, %loop ]
  %sh = lshr i32 %x, %i
  %b = trunc i32 %sh to i1
  %p1 = xor i1 %p, %b
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret i1 %p1
}

define i32 @main() {
entry:
  %pf1 = getelementptr inbounds [4 x i1], ptr @flags, i64 0, i64 1
  %pf2 = getelementptr inbounds [4 x i1], ptr @flags, i64 0, i64 2
  %pf3 = getelementptr inbounds [4 x i1], ptr @flags, i64 0, i64 3
  %f = load i1, ptr @flags
  %t = load i1, ptr %pf1
  ; Truth tables in the order (0,0) (0,1) (1,0) (1,1).
  %and00 = and i1 %f, %f
  %and01 = and i1 %f, %t
  %and10 = and i1 %t, %f
  %and11 = and i1 %t, %t
  call void @bit(i1 %and00)
  call void @bit(i1 %and01)
  call void @bit(i1 %and10)
  call void @bit(i1 %and11)
  call i32 @putchar(i32 32)
  %or00 = or i1 %f, %f
  %or01 = or i1 %f, %t
  %or10 = or i1 %t, %f
  %or11 = or i1 %t, %t
  call void @bit(i1 %or00)
  call void @bit(i1 %or01)
  call void @bit(i1 %or10)
  call void @bit(i1 %or11)
  call i32 @putchar(i32 32)
  %xor00 = xor i1 %f, %f
  %xor01 = xor i1 %f, %t
  %xor10 = xor i1 %t, %f
  %xor11 = xor i1 %t, %t
  call void @bit(i1 %xor00)
  call void @bit(i1 %xor01)
  call void @bit(i1 %xor10)
  call void @bit(i1 %xor11)
  call i32 @putchar(i32 32)
  %not_f = xor i1 %f, true
  %not_t = xor i1 %t, true
  call void @bit(i1 %not_f)
  call void @bit(i1 %not_t)
  call i32 @putchar(i32 32)
  ; Arithmetic on i1 wraps modulo 2.
  %add11 = add i1 %t, %t
  %sub01 = sub i1 %f, %t
  %mul11 = mul i1 %t, %t
  call void @bit(i1 %add11)
  call void @bit(i1 %sub01)
  call void @bit(i1 %mul11)
  call i32 @putchar(i32 10)
  ; Extensions of i1.
  %z8 = zext i1 %t to i8
  %s8 = sext i1 %t to i8
  %z16 = zext i1 %t to i16
  %s16 = sext i1 %t to i16
  %s32 = sext i1 %t to i32
  %s64 = sext i1 %t to i64
  %sf = sext i1 %f to i64
  %w1 = sext i8 %z8 to i64
  %w2 = sext i8 %s8 to i64
  %w3 = zext i16 %z16 to i64
  %w4 = sext i16 %s16 to i64
  %w5 = sext i32 %s32 to i64
  call void @num(i64 %w1)
  call void @num(i64 %w2)
  call void @num(i64 %w3)
  call void @num(i64 %w4)
  call void @num(i64 %w5)
  call void @num(i64 %s64)
  call void @num(i64 %sf)
  %u16 = zext i16 %s16 to i32
  %u16h = lshr i32 %u16, 13
  %u16h64 = zext i32 %u16h to i64
  call void @num(i64 %u16h64)
  call i32 @putchar(i32 10)
  ; icmp on i1: unsigned false < true, signed true (-1) < false (0).
  %ult = icmp ult i1 %f, %t
  %slt = icmp slt i1 %t, %f
  %sgt = icmp sgt i1 %t, %f
  %eq = icmp eq i1 %t, %not_f
  call void @bit(i1 %ult)
  call void @bit(i1 %slt)
  call void @bit(i1 %sgt)
  call void @bit(i1 %eq)
  call i32 @putchar(i32 32)
  ; trunc keeps the low bit only.
  %tr1 = trunc i32 6 to i1
  %tr2 = trunc i8 -127 to i1
  call void @bit(i1 %tr1)
  call void @bit(i1 %tr2)
  call i32 @putchar(i32 32)
  ; i1 round trip through memory.
  %slot = alloca i1
  %pt2 = load i1, ptr %pf2
  %pt3 = load i1, ptr %pf3
  %mx = xor i1 %pt2, %pt3
  store i1 %mx, ptr %slot
  %mx2 = load i1, ptr %slot
  call void @bit(i1 %mx2)
  store i1 %pt3, ptr %pf1
  %t_after = load i1, ptr %pf1
  call void @bit(i1 %t_after)
  call i32 @putchar(i32 32)
  %m1 = call i1 @majority(i1 %t, i1 %f, i1 %t)
  %m2 = call i1 @majority(i1 %f, i1 %f, i1 %t)
  call void @bit(i1 %m1)
  call void @bit(i1 %m2)
  %par1 = call i1 @parity(i32 7, i32 32)
  %par2 = call i1 @parity(i32 -1, i32 32)
  call void @bit(i1 %par1)
  call void @bit(i1 %par2)
  call i32 @putchar(i32 10)
  ; Short circuit: (par1 && m1) || m2, as branches joined by an i1 phi.
  br i1 %par1, label %check_m1, label %check_m2
check_m1:
  br i1 %m1, label %join, label %check_m2
check_m2:
  br label %join
join:
  %sc = phi i1 [ true, %check_m1 ], [ %m2, %check_m2 ]
  %sc32 = zext i1 %sc to i32
  %hi = shl i32 %sc32, 3
  %lo = zext i1 %par1 to i32
  %x = or i32 %hi, %lo
  %ult32 = zext i1 %ult to i32
  %ult2 = shl i32 %ult32, 1
  %st = or i32 %x, %ult2
  ret i32 %st
}
