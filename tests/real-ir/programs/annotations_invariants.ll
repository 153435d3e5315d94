; What clang++ -O2 writes around ordinary code that has no effect on what it computes:
; `__attribute__((annotate))` (`@llvm.global.annotations`, strings in section "llvm.metadata",
; `llvm.var.annotation`, `llvm.ptr.annotation`, `llvm.annotation`), `llvm.invariant.start`/`end`
; (a `const` global with a dynamic initialiser), `llvm.launder.invariant.group`/
; `strip.invariant.group` (-fstrict-vtable-pointers) and `llvm.assume` with operand bundles.
; Prints "42 42", exits with 42.
source_filename = "annotations_invariants.ll"

@.str = private unnamed_addr constant [4 x i8] c"hot\00", section "llvm.metadata"
@.file = private unnamed_addr constant [6 x i8] c"a.cpp\00", section "llvm.metadata"
@limit = internal global i32 0, align 4
@fmt = private unnamed_addr constant [7 x i8] c"%d %d\0A\00"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @compute, ptr @.str, ptr @.file, i32 3, ptr null }], section "llvm.metadata"

declare i32 @printf(ptr, ...)
declare void @llvm.var.annotation.p0.p0(ptr, ptr, ptr, i32, ptr)
declare ptr @llvm.ptr.annotation.p0.p0(ptr, ptr, ptr, i32, ptr)
declare i32 @llvm.annotation.i32.p0(i32, ptr, ptr, i32)
declare ptr @llvm.invariant.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.invariant.end.p0(ptr, i64 immarg, ptr nocapture)
declare ptr @llvm.launder.invariant.group.p0(ptr)
declare ptr @llvm.strip.invariant.group.p0(ptr)
declare void @llvm.assume(i1)

define internal i32 @compute(i32 %x) noinline {
entry:
  %slot = alloca i32, align 4
  call void @llvm.var.annotation.p0.p0(ptr %slot, ptr @.str, ptr @.file, i32 5, ptr null)
  store i32 %x, ptr %slot, align 4
  call void @llvm.assume(i1 true) [ "align"(ptr %slot, i64 4), "nonnull"(ptr %slot), "dereferenceable"(ptr %slot, i64 4) ]
  store i32 40, ptr @limit, align 4
  %inv = call ptr @llvm.invariant.start.p0(i64 4, ptr @limit)
  %p = call ptr @llvm.ptr.annotation.p0.p0(ptr %slot, ptr @.str, ptr @.file, i32 6, ptr null)
  %v = load i32, ptr %p, align 4
  %laundered = call ptr @llvm.launder.invariant.group.p0(ptr %slot)
  %stripped = call ptr @llvm.strip.invariant.group.p0(ptr %laundered)
  %w = load i32, ptr %stripped, align 4
  %a = call i32 @llvm.annotation.i32.p0(i32 %w, ptr @.str, ptr @.file, i32 7)
  %l = load i32, ptr @limit, align 4
  call void @llvm.invariant.end.p0(ptr %inv, i64 4, ptr @limit)
  %sum = add i32 %a, %l
  %same = icmp eq i32 %v, %w
  %r = select i1 %same, i32 %sum, i32 0
  ret i32 %r
}

define i32 @main() {
entry:
  %r = call i32 @compute(i32 2)
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %r, i32 %r)
  ret i32 %r
}
