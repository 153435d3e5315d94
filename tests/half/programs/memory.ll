; half in memory: globals of half inside structs and arrays (2 bytes, aligned to 2), aggregate
; loads and stores, atomic loads and stores, phis and selects of half, calls passing and returning
; half through internal functions, sitofp/uitofp/fptosi/fptoui at narrow widths.
declare i32 @printf(ptr, ...)
@fmt = private constant [4 x i8] c"%x \00"
@nl = private constant [2 x i8] c"\0A\00"
@st = global { i8, half, [3 x half], i8 } { i8 -1, half 0xH3C00, [3 x half] [half 0xH0001, half 0xH7BFF, half 0xHFC00], i8 -1 }
@a = global half 0xH4248
@copy = global { i8, half, [3 x half], i8 } zeroinitializer

define internal void @p(i64 %v) noinline {
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret void
}

define internal void @ph(half %h) noinline {
  %b = bitcast half %h to i16
  %w = zext i16 %b to i64
  call void @p(i64 %w)
  ret void
}

define internal void @dump(ptr %base, i64 %n) noinline {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %q = getelementptr i8, ptr %base, i64 %i
  %b = load i8, ptr %q
  %w = zext i8 %b to i64
  call void @p(i64 %w)
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %out, label %loop
out:
  call i32 (ptr, ...) @printf(ptr @nl)
  ret void
}

define internal half @halve(half %x, i32 %times) noinline {
entry:
  br label %loop
loop:
  %v = phi half [ %x, %entry ], [ %h, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %h = fmul half %v, 0xH3800
  call void @ph(half %h)
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %times
  br i1 %done, label %out, label %loop
out:
  ret half %h
}

define i32 @main() {
  call void @dump(ptr @st, i64 12)
  %agg = load { i8, half, [3 x half], i8 }, ptr @st
  %f = extractvalue { i8, half, [3 x half], i8 } %agg, 2, 1
  call void @ph(half %f)
  %agg2 = insertvalue { i8, half, [3 x half], i8 } %agg, half 0xH5640, 2, 0
  store { i8, half, [3 x half], i8 } %agg2, ptr @copy
  call void @dump(ptr @copy, i64 12)
  %at = load atomic half, ptr @a seq_cst, align 2
  call void @ph(half %at)
  %neg = fneg half %at
  store atomic half %neg, ptr @a seq_cst, align 2
  call void @dump(ptr @a, i64 2)
  %small = call half @halve(half 0xH3C00, i32 26)
  call i32 (ptr, ...) @printf(ptr @nl)
  %big = call half @halve(half 0xH7BFF, i32 3)
  call i32 (ptr, ...) @printf(ptr @nl)
  %i8v = fptosi half 0xHD7F0 to i8
  %i8w = sext i8 %i8v to i64
  call void @p(i64 %i8w)
  %u16v = fptoui half 0xH7BFF to i16
  %u16w = zext i16 %u16v to i64
  call void @p(i64 %u16w)
  %fromi8 = sitofp i8 -128 to half
  call void @ph(half %fromi8)
  %fromu16 = uitofp i16 65535 to half
  call void @ph(half %fromu16)
  %fromi1 = uitofp i1 true to half
  call void @ph(half %fromi1)
  %sel = fcmp ogt half %small, %big
  %pick = select i1 %sel, half %small, half %big
  call void @ph(half %pick)
  call i32 (ptr, ...) @printf(ptr @nl)
  ret i32 0
}
