; Two-dimensional arrays: global constant nested-array matrices multiplied into an alloca'd 2D array
; with multi-index GEPs, a transposed copy in a mutable global 2D array, GEPs with i32 indices, a
; negative constant index, byte-offset GEPs over i8, and a 3D i16 array. Exit status: trace & 0x7f.
source_filename = "matrix_2d.ll"

@A = internal constant [3 x [4 x i32]] [[4 x i32] [i32 1, i32 2, i32 3, i32 4], [4 x i32] [i32 -5, i32 6, i32 -7, i32 8], [4 x i32] [i32 9, i32 10, i32 11, i32 -12]]
@B = internal constant [4 x [3 x i32]] [[3 x i32] [i32 2, i32 0, i32 1], [3 x i32] [i32 -1, i32 3, i32 0], [3 x i32] [i32 4, i32 1, i32 -2], [3 x i32] [i32 0, i32 5, i32 7]]
@T = global [3 x [3 x i64]] zeroinitializer
@cube = internal global [2 x [3 x [4 x i16]]] zeroinitializer, align 4

declare i32 @putchar(i32)

define internal void @print_i64(i64 %v) {
entry:
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %digits
minus:
  call i32 @putchar(i32 45)
  br label %digits
digits:
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

define i32 @main() {
entry:
  %C = alloca [3 x [3 x i32]], align 4
  br label %row
row:
  %i = phi i64 [ 0, %entry ], [ %i1, %row_end ]
  br label %col
col:
  %j = phi i64 [ 0, %row ], [ %j1, %col_end ]
  br label %dot
dot:
  %k = phi i64 [ 0, %col ], [ %k1, %dot ]
  %acc = phi i32 [ 0, %col ], [ %acc1, %dot ]
  %pa = getelementptr inbounds [3 x [4 x i32]], ptr @A, i64 0, i64 %i, i64 %k
  %pb = getelementptr inbounds [4 x [3 x i32]], ptr @B, i64 0, i64 %k, i64 %j
  %a = load i32, ptr %pa
  %b = load i32, ptr %pb
  %ab = mul nsw i32 %a, %b
  %acc1 = add nsw i32 %acc, %ab
  %k1 = add i64 %k, 1
  %kmore = icmp ult i64 %k1, 4
  br i1 %kmore, label %dot, label %col_end
col_end:
  %pc = getelementptr inbounds [3 x [3 x i32]], ptr %C, i64 0, i64 %i, i64 %j
  store i32 %acc1, ptr %pc
  ; T[j][i] = C[i][j] * 1000 + i
  %wide = sext i32 %acc1 to i64
  %scaled = mul i64 %wide, 1000
  %tv = add i64 %scaled, %i
  %pt = getelementptr inbounds [3 x [3 x i64]], ptr @T, i64 0, i64 %j, i64 %i
  store i64 %tv, ptr %pt
  %j1 = add i64 %j, 1
  %jmore = icmp ult i64 %j1, 3
  br i1 %jmore, label %col, label %row_end
row_end:
  %i1 = add i64 %i, 1
  %imore = icmp ult i64 %i1, 3
  br i1 %imore, label %row, label %print
print:
  ; Prints C row by row using i32 indices, which GEP sign-extends.
  br label %prow
prow:
  %r = phi i32 [ 0, %print ], [ %r1, %prow_end ]
  %trace = phi i32 [ 0, %print ], [ %trace1, %prow_end ]
  br label %pcol
pcol:
  %c = phi i32 [ 0, %prow ], [ %c1, %pcol ]
  %p = getelementptr inbounds [3 x [3 x i32]], ptr %C, i32 0, i32 %r, i32 %c
  %v = load i32, ptr %p
  %v64 = sext i32 %v to i64
  call void @print_i64(i64 %v64)
  call i32 @putchar(i32 32)
  %c1 = add i32 %c, 1
  %cmore = icmp slt i32 %c1, 3
  br i1 %cmore, label %pcol, label %prow_end
prow_end:
  call i32 @putchar(i32 10)
  %diag = getelementptr inbounds [3 x [3 x i32]], ptr %C, i64 0, i32 %r, i32 %r
  %dv = load i32, ptr %diag
  %trace1 = add i32 %trace, %dv
  %r1 = add i32 %r, 1
  %rmore = icmp slt i32 %r1, 3
  br i1 %rmore, label %prow, label %rest
rest:
  ; T[2][1] read through a row pointer and a negative index from the row after it.
  %row3 = getelementptr inbounds [3 x [3 x i64]], ptr @T, i64 0, i64 2
  %back = getelementptr inbounds i64, ptr %row3, i64 1
  %t21 = load i64, ptr %back
  %t_back = getelementptr inbounds [3 x i64], ptr %row3, i64 0, i64 -2
  %t_m = getelementptr [3 x i64], ptr %row3, i64 1, i64 -1
  %t10 = load i64, ptr %t_back
  %t22 = load i64, ptr %t_m
  call void @print_i64(i64 %t21)
  call i32 @putchar(i32 32)
  call void @print_i64(i64 %t10)
  call i32 @putchar(i32 32)
  call void @print_i64(i64 %t22)
  call i32 @putchar(i32 10)
  ; Fills cube[x][y][z] = x*100 + y*10 + z, then reads the element at byte offset 2*(1*12 + 2*4 + 3).
  br label %cx
cx:
  %x = phi i64 [ 0, %rest ], [ %x1, %cx_end ]
  br label %cy
cy:
  %y = phi i64 [ 0, %cx ], [ %y1, %cy_end ]
  br label %cz
cz:
  %z = phi i64 [ 0, %cy ], [ %z1, %cz ]
  %x100 = mul i64 %x, 100
  %y10 = mul i64 %y, 10
  %xy = add i64 %x100, %y10
  %xyz = add i64 %xy, %z
  %xyz16 = trunc i64 %xyz to i16
  %pq = getelementptr inbounds [2 x [3 x [4 x i16]]], ptr @cube, i64 0, i64 %x, i64 %y, i64 %z
  store i16 %xyz16, ptr %pq, align 2
  %z1 = add i64 %z, 1
  %zmore = icmp ult i64 %z1, 4
  br i1 %zmore, label %cz, label %cy_end
cy_end:
  %y1 = add i64 %y, 1
  %ymore = icmp ult i64 %y1, 3
  br i1 %ymore, label %cy, label %cx_end
cx_end:
  %x1 = add i64 %x, 1
  %xmore = icmp ult i64 %x1, 2
  br i1 %xmore, label %cx, label %bytes
bytes:
  %byte = getelementptr inbounds i8, ptr @cube, i64 46
  %e123 = load i16, ptr %byte
  %e64 = zext i16 %e123 to i64
  call void @print_i64(i64 %e64)
  call i32 @putchar(i32 10)
  %status = and i32 %trace1, 127
  ret i32 %status
}
