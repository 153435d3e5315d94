; Integer matrix multiply (i-k-j order) over global 128x128 i32 matrices, repeated: a stack map (ID 2)
; in the inner loop records the three indices, A[i][k], the row pointer and the repeat count, as a
; loop safepoint would. Prints a checksum of C; exit status: (checksum >> 32) & 127.
source_filename = "matmul_safepoint.ll"

@A = internal global [128 x [128 x i32]] zeroinitializer, align 16
@B = internal global [128 x [128 x i32]] zeroinitializer, align 16
@C = internal global [128 x [128 x i32]] zeroinitializer, align 16
; Volatile loads of this keep llc-19 from folding the repeat loop.
@repeats = internal global i64 400, align 8

declare i32 @putchar(i32)
declare void @llvm.experimental.stackmap(i64, i32, ...)

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

; A[r][c] = (r * 7 + c * 13) % 31 - 15, B[r][c] = (r * 5 - c * 3) & 63.
define internal void @init() {
entry:
  br label %row
row:
  %r = phi i64 [ 0, %entry ], [ %r1, %row_end ]
  br label %col
col:
  %c = phi i64 [ 0, %row ], [ %c1, %col ]
  %r7 = mul i64 %r, 7
  %c13 = mul i64 %c, 13
  %a0 = add i64 %r7, %c13
  %a1 = urem i64 %a0, 31
  %a2 = sub i64 %a1, 15
  %a = trunc i64 %a2 to i32
  %pa = getelementptr inbounds [128 x [128 x i32]], ptr @A, i64 0, i64 %r, i64 %c
  store i32 %a, ptr %pa
  %r5 = mul i64 %r, 5
  %c3 = mul i64 %c, 3
  %b0 = sub i64 %r5, %c3
  %b1 = and i64 %b0, 63
  %b = trunc i64 %b1 to i32
  %pb = getelementptr inbounds [128 x [128 x i32]], ptr @B, i64 0, i64 %r, i64 %c
  store i32 %b, ptr %pb
  %c1 = add i64 %c, 1
  %cmore = icmp ult i64 %c1, 128
  br i1 %cmore, label %col, label %row_end
row_end:
  %r1 = add i64 %r, 1
  %rmore = icmp ult i64 %r1, 128
  br i1 %rmore, label %row, label %exit
exit:
  ret void
}

define i32 @main() {
entry:
  call void @init()
  %reps = load volatile i64, ptr @repeats
  br label %rep
rep:
  %n = phi i64 [ 0, %entry ], [ %n1, %rep_end ]
  br label %irow
irow:
  %i = phi i64 [ 0, %rep ], [ %i1, %irow_end ]
  %crow = getelementptr inbounds [128 x [128 x i32]], ptr @C, i64 0, i64 %i, i64 0
  br label %kloop
kloop:
  %k = phi i64 [ 0, %irow ], [ %k1, %kloop_end ]
  %pa = getelementptr inbounds [128 x [128 x i32]], ptr @A, i64 0, i64 %i, i64 %k
  %aik = load i32, ptr %pa
  br label %jloop
jloop:
  %j = phi i64 [ 0, %kloop ], [ %j1, %jloop ]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, i64 %i, i64 %k, i64 %j, i32 %aik, ptr %crow, i64 %n)
  %pb = getelementptr inbounds [128 x [128 x i32]], ptr @B, i64 0, i64 %k, i64 %j
  %b = load i32, ptr %pb
  %pc = getelementptr inbounds i32, ptr %crow, i64 %j
  %c = load i32, ptr %pc
  %ab = mul i32 %aik, %b
  %c1 = add i32 %c, %ab
  store i32 %c1, ptr %pc
  %j1 = add i64 %j, 1
  %jmore = icmp ult i64 %j1, 128
  br i1 %jmore, label %jloop, label %kloop_end
kloop_end:
  %k1 = add i64 %k, 1
  %kmore = icmp ult i64 %k1, 128
  br i1 %kmore, label %kloop, label %irow_end
irow_end:
  %i1 = add i64 %i, 1
  %imore = icmp ult i64 %i1, 128
  br i1 %imore, label %irow, label %rep_end
rep_end:
  %n1 = add i64 %n, 1
  %nmore = icmp ult i64 %n1, %reps
  br i1 %nmore, label %rep, label %sum
sum:
  %x = phi i64 [ 0, %rep_end ], [ %x1, %sum ]
  %h = phi i64 [ 0, %rep_end ], [ %h2, %sum ]
  %px = getelementptr inbounds [128 x [128 x i32]], ptr @C, i64 0, i64 0, i64 %x
  %v = load i32, ptr %px
  %vw = zext i32 %v to i64
  %h0 = mul i64 %h, 31
  %h2 = add i64 %h0, %vw
  %x1 = add i64 %x, 1
  %xmore = icmp ult i64 %x1, 16384
  br i1 %xmore, label %sum, label %done
done:
  call void @print_u64(i64 %h2)
  call i32 @putchar(i32 10)
  ; C is a multiple of the repeat count: the high bits vary more than the low ones.
  %hi = lshr i64 %h2, 32
  %t = trunc i64 %hi to i32
  %st = and i32 %t, 127
  ret i32 %st
}
