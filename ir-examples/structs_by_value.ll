; Structs by value as clang-19 lowers them for C: { i64, i64 } and { double, double } results in two
; registers, [2 x i64] and { double, double } arguments (coerced small structs), an sret result
; written through a hidden pointer (x8 on AArch64), aggregate loads and stores of a named struct,
; insertvalue/extractvalue chains, an aggregate phi and select, packed and nested struct layouts
; read through GEPs, and an opaque type that is only declared. Prints with putchar.
; Exit status: 64.
source_filename = "structs_by_value.ll"

%struct.point = type { i64, i64 }
%struct.big = type { i64, i64, i64, i32 }
%struct.packed = type <{ i8, i32, i16, i64 }>
%struct.outer = type { i8, %struct.inner, [3 x i16] }
%struct.inner = type { double, i8 }
%struct.handle = type opaque

@n_add = private unnamed_addr constant [4 x i8] c"add\00", align 1
@n_big = private unnamed_addr constant [4 x i8] c"big\00", align 1
@n_lay = private unnamed_addr constant [7 x i8] c"layout\00", align 1
@n_cplx = private unnamed_addr constant [5 x i8] c"cplx\00", align 1
@n_loop = private unnamed_addr constant [5 x i8] c"loop\00", align 1

declare i32 @putchar(i32)

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

define internal void @print_i64(i64 %v) {
entry:
  call i32 @putchar(i32 32)
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %plain
minus:
  call i32 @putchar(i32 45)
  %m = sub i64 0, %v
  call void @print_u64(i64 %m)
  ret void
plain:
  call void @print_u64(i64 %v)
  ret void
}

; "NAME: a b c d e\n"
define internal void @report(ptr %name, i64 %a, i64 %b, i64 %c, i64 %d, i32 %e) {
entry:
  br label %chars
chars:
  %p = phi ptr [ %name, %entry ], [ %next, %char ]
  %ch = load i8, ptr %p, align 1
  %end = icmp eq i8 %ch, 0
  br i1 %end, label %values, label %char
char:
  %ch32 = zext i8 %ch to i32
  call i32 @putchar(i32 %ch32)
  %next = getelementptr inbounds i8, ptr %p, i64 1
  br label %chars
values:
  call i32 @putchar(i32 58)
  call void @print_i64(i64 %a)
  call void @print_i64(i64 %b)
  call void @print_i64(i64 %c)
  call void @print_i64(i64 %d)
  %e64 = sext i32 %e to i64
  call void @print_i64(i64 %e64)
  call i32 @putchar(i32 10)
  ret void
}

define internal { i64, i64 } @add([2 x i64] %a.coerce, [2 x i64] %b.coerce) {
entry:
  %a0 = extractvalue [2 x i64] %a.coerce, 0
  %a1 = extractvalue [2 x i64] %a.coerce, 1
  %b0 = extractvalue [2 x i64] %b.coerce, 0
  %b1 = extractvalue [2 x i64] %b.coerce, 1
  %x = add i64 %a0, %b0
  %y = add i64 %a1, %b1
  %r0 = insertvalue { i64, i64 } poison, i64 %x, 0
  %r1 = insertvalue { i64, i64 } %r0, i64 %y, 1
  ret { i64, i64 } %r1
}

define internal { double, double } @cmul({ double, double } %a, { double, double } %b) {
entry:
  %ar = extractvalue { double, double } %a, 0
  %ai = extractvalue { double, double } %a, 1
  %br = extractvalue { double, double } %b, 0
  %bi = extractvalue { double, double } %b, 1
  %rr1 = fmul double %ar, %br
  %rr2 = fmul double %ai, %bi
  %rr = fsub double %rr1, %rr2
  %ri1 = fmul double %ar, %bi
  %ri2 = fmul double %ai, %br
  %ri = fadd double %ri1, %ri2
  %z0 = insertvalue { double, double } undef, double %rr, 0
  %z1 = insertvalue { double, double } %z0, double %ri, 1
  ret { double, double } %z1
}

define internal void @make_big(ptr sret(%struct.big) align 8 %out, i64 %seed, i32 %tag) {
entry:
  %v0 = insertvalue %struct.big zeroinitializer, i64 %seed, 0
  %s2 = mul i64 %seed, 2
  %v1 = insertvalue %struct.big %v0, i64 %s2, 1
  %s3 = mul i64 %seed, 3
  %v2 = insertvalue %struct.big %v1, i64 %s3, 2
  %v3 = insertvalue %struct.big %v2, i32 %tag, 3
  store %struct.big %v3, ptr %out, align 8
  ret void
}

define i32 @main() {
entry:
  %p = call { i64, i64 } @add([2 x i64] [i64 3, i64 4], [2 x i64] [i64 -7, i64 11])
  %px = extractvalue { i64, i64 } %p, 0
  %py = extractvalue { i64, i64 } %p, 1
  %arr0 = insertvalue [2 x i64] undef, i64 %px, 0
  %arr1 = insertvalue [2 x i64] %arr0, i64 %py, 1
  %q = call { i64, i64 } @add([2 x i64] %arr1, [2 x i64] %arr1)
  %qx = extractvalue { i64, i64 } %q, 0
  %qy = extractvalue { i64, i64 } %q, 1
  call void @report(ptr @n_add, i64 %px, i64 %py, i64 %qx, i64 %qy, i32 0)

  %big = alloca %struct.big, align 8
  call void @make_big(ptr sret(%struct.big) align 8 %big, i64 5, i32 9)
  %bv = load %struct.big, ptr %big, align 8
  %b0 = extractvalue %struct.big %bv, 0
  %b1 = extractvalue %struct.big %bv, 1
  %b2 = extractvalue %struct.big %bv, 2
  %b3 = extractvalue %struct.big %bv, 3
  %tagp = getelementptr inbounds %struct.big, ptr %big, i32 0, i32 3
  %tag = load i32, ptr %tagp, align 8
  call void @report(ptr @n_big, i64 %b0, i64 %b1, i64 %b2, i64 0, i32 %b3)

  ; Layouts: a packed struct (offsets 0, 1, 5, 7; size 15) inside an array, a nested struct with padding.
  %pk = alloca [2 x %struct.packed], align 1
  %pk1 = getelementptr inbounds [2 x %struct.packed], ptr %pk, i64 0, i64 1
  store %struct.packed <{ i8 1, i32 -2, i16 3, i64 1099511627776 }>, ptr %pk1, align 1
  %pkend = getelementptr inbounds %struct.packed, ptr %pk1, i32 0, i32 3
  %pkoff = ptrtoint ptr %pkend to i64
  %pkbase = ptrtoint ptr %pk to i64
  %pkd = sub i64 %pkoff, %pkbase
  %pkv = load i64, ptr %pkend, align 1
  %ou = alloca %struct.outer, align 8
  store %struct.outer { i8 1, %struct.inner { double 2.5, i8 3 }, [3 x i16] [i16 4, i16 5, i16 6] }, ptr %ou, align 8
  %o22 = getelementptr inbounds %struct.outer, ptr %ou, i32 0, i32 2, i64 2
  %o22v = load i16, ptr %o22, align 2
  %o22w = sext i16 %o22v to i32
  %o22a = ptrtoint ptr %o22 to i64
  %oua = ptrtoint ptr %ou to i64
  %o22d = sub i64 %o22a, %oua
  %ovs = load %struct.outer, ptr %ou, align 8
  %oin = extractvalue %struct.outer %ovs, 1
  %oc = extractvalue %struct.inner %oin, 1
  %ocw = zext i8 %oc to i64
  call void @report(ptr @n_lay, i64 %pkd, i64 %pkv, i64 %o22d, i64 %ocw, i32 %o22w)

  ; (0.6 + 0.8i)^4 through { double, double } arguments and results, scaled to integers.
  br label %loop
loop:
  %z = phi { double, double } [ { double 1.000000e+00, double 0.000000e+00 }, %entry ], [ %z2, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %z2 = call { double, double } @cmul({ double, double } %z, { double, double } { double 6.000000e-01, double 8.000000e-01 })
  %i2 = add i32 %i, 1
  %more = icmp slt i32 %i2, 4
  br i1 %more, label %loop, label %done
done:
  %re = extractvalue { double, double } %z2, 0
  %im = extractvalue { double, double } %z2, 1
  %re1 = fmul double %re, 1.000000e+04
  %im1 = fmul double %im, 1.000000e+04
  %rei = fptosi double %re1 to i64
  %imi = fptosi double %im1 to i64
  %neg = icmp slt i64 %rei, 0
  %pick = select i1 %neg, { i64, i64 } %p, { i64, i64 } %q
  %pk0 = extractvalue { i64, i64 } %pick, 0
  call void @report(ptr @n_cplx, i64 %rei, i64 %imi, i64 %pk0, i64 0, i32 %i2)
  %s1 = add i64 %b0, %px
  %s2 = add i64 %s1, %pkd
  %s3 = add i64 %s2, %o22d
  %s4 = add i64 %s3, %ocw
  %st = trunc i64 %s4 to i32
  %tagok = icmp eq i32 %tag, 9
  %bonus = select i1 %tagok, i32 10, i32 0
  %status = add i32 %st, %bonus
  ret i32 %status
}
