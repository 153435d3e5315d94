; Every linkage clang and front ends emit (weak, weak_odr, linkonce, linkonce_odr, common,
; extern_weak, available_externally, internal, private), unnamed_addr/dso_local markers, a `nest`
; parameter of an internal function, and
; atomics: atomic loads and stores, atomicrmw of each operation, fences with a syncscope, freeze.
source_filename = "linkages_atomics.ll"

@counter = dso_local global i64 0, align 8
@weak_value = weak global i32 11, align 4
@weak_odr_value = weak_odr global i32 12, align 4
@linkonce_value = linkonce_odr dso_local global i32 13, align 4
@common_value = common global i64 0, align 8
@missing_value = extern_weak global i32
@private_table = private unnamed_addr constant [3 x i32] [i32 1, i32 2, i32 3], align 4
@flag = internal global i8 0, align 1
@dval = internal global double 2.5, align 8

declare i32 @putchar(i32)
declare extern_weak void @missing_function()

define available_externally i32 @abs(i32 %x) {
entry:
  ret i32 0
}

define weak i32 @weak_function(i32 %x) {
entry:
  %r = mul i32 %x, 3
  ret i32 %r
}

define linkonce_odr hidden i32 @inline_function(i32 %x) {
entry:
  %r = add i32 %x, 100
  ret i32 %r
}

; A static chain (GCC nested functions, trampolines): only local functions take one.
define internal i64 @chained(ptr nest %frame, i64 %x) {
entry:
  %v = load i64, ptr %frame, align 8
  %r = add i64 %v, %x
  ret i64 %r
}

define internal void @print_digit(i64 %v) {
entry:
  %m = urem i64 %v, 10
  %c = add i64 %m, 48
  %c32 = trunc i64 %c to i32
  %p = call i32 @putchar(i32 %c32)
  ret void
}

define internal void @print_number(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rest, label %last
rest:
  %d = udiv i64 %v, 10
  call void @print_number(i64 %d)
  br label %last
last:
  call void @print_digit(i64 %v)
  %sp = call i32 @putchar(i32 32)
  ret void
}

define i32 @main() {
entry:
  ; extern_weak symbols nothing defines are null.
  %no_fn = icmp eq ptr @missing_function, null
  %no_val = icmp eq ptr @missing_value, null
  %nf = zext i1 %no_fn to i64
  %nv = zext i1 %no_val to i64
  call void @print_number(i64 %nf)
  call void @print_number(i64 %nv)
  ; available_externally: the C library's abs, not the body here.
  %a = call i32 @abs(i32 -42)
  %a64 = sext i32 %a to i64
  call void @print_number(i64 %a64)
  %w = call i32 @weak_function(i32 5)
  %i = call i32 @inline_function(i32 %w)
  %i64 = sext i32 %i to i64
  call void @print_number(i64 %i64)
  %wv = load i32, ptr @weak_value, align 4
  %wo = load i32, ptr @weak_odr_value, align 4
  %lv = load i32, ptr @linkonce_value, align 4
  %s1 = add i32 %wv, %wo
  %s2 = add i32 %s1, %lv
  %s64 = sext i32 %s2 to i64
  call void @print_number(i64 %s64)
  store i64 7, ptr @common_value, align 8
  %t = getelementptr inbounds [3 x i32], ptr @private_table, i64 0, i64 2
  %tv = load i32, ptr %t, align 4
  %tv64 = zext i32 %tv to i64
  call void @print_number(i64 %tv64)
  ; Atomics.
  store atomic i64 10, ptr @counter seq_cst, align 8
  %o1 = atomicrmw add ptr @counter, i64 5 seq_cst, align 8
  %o2 = atomicrmw sub ptr @counter, i64 3 acq_rel, align 8
  %o3 = atomicrmw or ptr @counter, i64 64 monotonic, align 8
  %o4 = atomicrmw and ptr @counter, i64 -2 release, align 8
  %o5 = atomicrmw xor ptr @counter, i64 1 acquire, align 8
  %o6 = atomicrmw nand ptr @counter, i64 255 seq_cst, align 8
  %o7 = atomicrmw max ptr @counter, i64 -5 seq_cst, align 8
  %o8 = atomicrmw umin ptr @counter, i64 1000 seq_cst, align 8
  %o9 = atomicrmw xchg ptr @counter, i64 77 seq_cst, align 8
  fence syncscope("singlethread") seq_cst
  fence acquire
  %now = load atomic i64, ptr @counter seq_cst, align 8
  %b1 = atomicrmw xchg ptr @flag, i8 1 seq_cst, align 1
  %b2 = atomicrmw umax ptr @flag, i8 9 seq_cst, align 1
  %bl = load atomic i8, ptr @flag acquire, align 1
  %d = load atomic double, ptr @dval monotonic, align 8
  %d2 = fmul double %d, 4.0
  store atomic double %d2, ptr @dval release, align 8
  %dx = atomicrmw xchg ptr @dval, double 1.0 seq_cst, align 8
  %dxi = fptosi double %dx to i64
  call void @print_number(i64 %o1)
  call void @print_number(i64 %o2)
  call void @print_number(i64 %o3)
  call void @print_number(i64 %o4)
  call void @print_number(i64 %o5)
  call void @print_number(i64 %o6)
  call void @print_number(i64 %o8)
  call void @print_number(i64 %o9)
  call void @print_number(i64 %now)
  %b164 = zext i8 %b1 to i64
  %b264 = zext i8 %b2 to i64
  %bl64 = zext i8 %bl to i64
  call void @print_number(i64 %b164)
  call void @print_number(i64 %b264)
  call void @print_number(i64 %bl64)
  call void @print_number(i64 %dxi)
  %neg = icmp slt i64 %o7, 0
  %f = freeze i1 %neg
  %fz = zext i1 %f to i64
  call void @print_number(i64 %fz)
  %fr = freeze i32 poison
  %frame = alloca i64, align 8
  store i64 40, ptr %frame, align 8
  %ch = call i64 @chained(ptr nest %frame, i64 2)
  call void @print_number(i64 %ch)
  %nl = call i32 @putchar(i32 10)
  %st = trunc i64 %now to i32
  ret i32 %st
}
