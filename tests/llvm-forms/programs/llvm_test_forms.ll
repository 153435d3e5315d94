; Forms of LLVM's own stack map and patch point tests: typed-pointer syntax (`i8*`, `i64 (i64)*`,
; `bitcast (i64 (i64)* @f to i8*)`), integer literals as LLVM reads them (`i32 4294967297` is 1,
; `i8 -129` is 127, `s0x0F` is -1, `u0xFF` is 255), i128 constants in a stack map, a clobber-only
; inline asm, and a patch point whose null TARGET is an `inttoptr` instruction. Prints "274", exit
; status 42 (run by tests/programs/llvm_forms.rs).
source_filename = "llvm_test_forms.ll"

declare i32 @putchar(i32)

define internal i64 @twice(i64 %x) {
entry:
  %r = mul i64 %x, 2
  ret i64 %r
}

define internal void @print_digit(i64 %v) {
entry:
  %d = urem i64 %v, 10
  %c = add i64 %d, 48
  %c32 = trunc i64 %c to i32
  %ignored = call i32 @putchar(i32 %c32)
  ret void
}

define internal i64 @apply(i64 (i64)* %f, i64 %x) {
entry:
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

define i32 @main() {
entry:
  %slot = alloca i8*
  store i8* bitcast (i64 (i64)* @twice to i8*), i8** %slot
  %loaded = load i8*, i8** %slot
  %f = bitcast i8* %loaded to i64 (i64)*
  %one = add i32 0, 4294967297
  %one64 = zext i32 %one to i64
  %a = call i64 @apply(i64 (i64)* %f, i64 %one64)
  call void @print_digit(i64 %a)
  %b8 = add i8 -129, 0
  %b = sext i8 %b8 to i64
  call void @print_digit(i64 %b)
  %m = add i32 s0x0F, 0
  %m64 = sext i32 %m to i64
  %u = add i64 u0xFF, %m64
  call void @print_digit(i64 %u)
  call void asm sideeffect "", "~{memory}"()
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i128 18446744073709551617, i64 %a, i64 %u)
  %target = inttoptr i64 0 to ptr
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 2, i32 16, ptr %target, i32 0, i64 %b)
  %nl = call i32 @putchar(i32 10)
  ; 2 + 127 + 254 = 383; 383 - 341 = 42
  %sum = add i64 %a, %b
  %sum2 = add i64 %sum, %u
  %status = sub i64 %sum2, 341
  %s32 = trunc i64 %status to i32
  ret i32 %s32
}

declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
