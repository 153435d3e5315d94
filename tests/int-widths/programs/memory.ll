; iN in memory: globals, allocas, arrays, structs and GEPs laid out as LLVM's data layouts lay them
; out (an i24 stores 3 bytes and takes 4, an i40 stores 5 and takes 8), loads and stores that touch
; the store size only, phis, selects and switches on iN, and calls and returns of iN values.
declare i32 @printf(ptr, ...)
@fmt = private constant [6 x i8] c"%llx \00"
@nl = private constant [2 x i8] c"\0A\00"

@g24 = global i24 -1
@g40 = global i40 -549755813888
@arr = global [3 x i24] [i24 1, i24 -2, i24 8388607]
@st = global { i8, i24, i40, i2, i12, i48 } { i8 -1, i24 -1, i40 -1, i2 -1, i12 -1, i48 -1 }
@packed = global <{ i8, i24, i40, i2 }> <{ i8 -1, i24 -1, i40 -1, i2 -1 }>
@bytes = global [16 x i8] c"\AA\BB\CC\DD\EE\FF\11\22\33\44\55\66\77\88\99\00"

define void @p(i64 %v) noinline {
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret void
}

define void @line() noinline {
  call i32 (ptr, ...) @printf(ptr @nl)
  ret void
}

; Every byte of a global, to show its layout and padding.
define void @dump(ptr %base, i64 %n) noinline {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %at = getelementptr i8, ptr %base, i64 %i
  %b = load i8, ptr %at
  %w = zext i8 %b to i64
  call void @p(i64 %w)
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %out, label %loop
out:
  call void @line()
  ret void
}

define i64 @offset(ptr %base, ptr %field) noinline {
  %a = ptrtoint ptr %base to i64
  %b = ptrtoint ptr %field to i64
  %d = sub i64 %b, %a
  ret i64 %d
}

define i24 @sum24(i24 %a, i24 %b) noinline {
  %s = add i24 %a, %b
  ret i24 %s
}

define signext i24 @neg24(i24 signext %a) noinline {
  %s = sub i24 0, %a
  ret i24 %s
}

define zeroext i40 @twice40(i40 zeroext %a) noinline {
  %s = shl i40 %a, 1
  ret i40 %s
}

define i2 @pick(i12 %k) noinline {
entry:
  switch i12 %k, label %other [
    i12 -1, label %minus
    i12 2047, label %max
    i12 -2048, label %min
    i12 5, label %five
  ]
minus:
  br label %out
max:
  br label %out
min:
  br label %out
five:
  br label %out
other:
  br label %out
out:
  %r = phi i2 [ -1, %minus ], [ 1, %max ], [ -2, %min ], [ 0, %five ], [ -1, %other ]
  ret i2 %r
}

define i32 @main() {
  call void @dump(ptr @g24, i64 4)
  call void @dump(ptr @g40, i64 8)
  call void @dump(ptr @arr, i64 12)
  call void @dump(ptr @st, i64 32)
  call void @dump(ptr @packed, i64 11)
  %f1 = getelementptr { i8, i24, i40, i2, i12, i48 }, ptr @st, i64 0, i32 1
  %f2 = getelementptr { i8, i24, i40, i2, i12, i48 }, ptr @st, i64 0, i32 2
  %f3 = getelementptr { i8, i24, i40, i2, i12, i48 }, ptr @st, i64 0, i32 3
  %f4 = getelementptr { i8, i24, i40, i2, i12, i48 }, ptr @st, i64 0, i32 4
  %f5 = getelementptr { i8, i24, i40, i2, i12, i48 }, ptr @st, i64 0, i32 5
  %e2 = getelementptr i40, ptr @st, i64 3
  %o1 = call i64 @offset(ptr @st, ptr %f1)
  call void @p(i64 %o1)
  %o2 = call i64 @offset(ptr @st, ptr %f2)
  call void @p(i64 %o2)
  %o3 = call i64 @offset(ptr @st, ptr %f3)
  call void @p(i64 %o3)
  %o4 = call i64 @offset(ptr @st, ptr %f4)
  call void @p(i64 %o4)
  %o5 = call i64 @offset(ptr @st, ptr %f5)
  call void @p(i64 %o5)
  %o6 = call i64 @offset(ptr @st, ptr %e2)
  call void @p(i64 %o6)
  call void @line()
  ; Loads read the store size only: the byte after an i24 is not part of it.
  %l24 = load i24, ptr @bytes
  %z24 = zext i24 %l24 to i64
  call void @p(i64 %z24)
  %at1 = getelementptr i8, ptr @bytes, i64 1
  %l40 = load i40, ptr %at1, align 1
  %z40 = sext i40 %l40 to i64
  call void @p(i64 %z40)
  %at2 = getelementptr i8, ptr @bytes, i64 2
  %l48 = load i48, ptr %at2, align 1
  %z48 = zext i48 %l48 to i64
  call void @p(i64 %z48)
  %at3 = getelementptr i8, ptr @bytes, i64 3
  %l56 = load i56, ptr %at3, align 1
  %z56 = sext i56 %l56 to i64
  call void @p(i64 %z56)
  call void @line()
  ; Stores write the store size only.
  %at5 = getelementptr i8, ptr @bytes, i64 5
  store i24 -2, ptr %at5, align 1
  %at9 = getelementptr i8, ptr @bytes, i64 9
  store i40 1, ptr %at9, align 1
  store i12 -1, ptr @bytes, align 1
  ; A width that is not whole bytes is read back as it was stored (LLVM leaves other reads undefined).
  %l12 = load i12, ptr @bytes, align 1
  %z12 = zext i12 %l12 to i64
  call void @p(i64 %z12)
  ; Odd store sizes (7, 6 bytes) leave the byte after them alone.
  %at8 = getelementptr i8, ptr @bytes, i64 7
  store i56 -1, ptr %at8, align 1
  %at4 = getelementptr i8, ptr @bytes, i64 1
  store i48 1, ptr %at4, align 1
  call void @dump(ptr @bytes, i64 16)
  ; A local array of i24 through a GEP with a variable index.
  %local = alloca [4 x i24]
  %h = getelementptr [4 x i24], ptr %local, i64 0, i64 0
  store i24 -8388608, ptr %h
  %k = call i64 @offset(ptr null, ptr inttoptr (i64 2 to ptr))
  %h2 = getelementptr i24, ptr %local, i64 %k
  store i24 123456, ptr %h2
  %v0 = load i24, ptr %h
  %v2 = load i24, ptr %h2
  %sum = call i24 @sum24(i24 %v0, i24 %v2)
  %zs = zext i24 %sum to i64
  call void @p(i64 %zs)
  %n = call i24 @neg24(i24 %v0)
  %zn = sext i24 %n to i64
  call void @p(i64 %zn)
  %t = call i40 @twice40(i40 -1)
  %zt = zext i40 %t to i64
  call void @p(i64 %zt)
  %s1 = call i2 @pick(i12 -1)
  %s2 = call i2 @pick(i12 2047)
  %s3 = call i2 @pick(i12 2048)
  %s4 = call i2 @pick(i12 5)
  %s5 = call i2 @pick(i12 4)
  %c1 = zext i2 %s1 to i64
  call void @p(i64 %c1)
  %c2 = zext i2 %s2 to i64
  call void @p(i64 %c2)
  %c3 = zext i2 %s3 to i64
  call void @p(i64 %c3)
  %c4 = zext i2 %s4 to i64
  call void @p(i64 %c4)
  %c5 = zext i2 %s5 to i64
  call void @p(i64 %c5)
  %cmp = icmp slt i2 %s1, %s4
  %sel = select i1 %cmp, i24 %v0, i24 %v2
  %zsel = zext i24 %sel to i64
  call void @p(i64 %zsel)
  call void @line()
  %r = trunc i24 %sum to i8
  %ret = zext i8 %r to i32
  ret i32 %ret
}
