; Static constructors and destructors with priorities (issue 27, item 5): objects place them in
; .init_array.P/.fini_array.P for the linker to sort; the JIT and the interpreter run them in the
; same order around main. Equal priorities keep the list's order (reversed for destructors).
@.ctor = private unnamed_addr constant [9 x i8] c"ctor %d\0A\00"
@.dtor = private unnamed_addr constant [9 x i8] c"dtor %d\0A\00"
@.main = private unnamed_addr constant [12 x i8] c"main %d %d\0A\00"
@count = internal global i32 0
@sum = internal global i32 0

@llvm.global_ctors = appending global [5 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 300, ptr @c300, ptr null },
  { i32, ptr, ptr } { i32 65535, ptr @cdefault, ptr null },
  { i32, ptr, ptr } { i32 101, ptr @c101, ptr null },
  { i32, ptr, ptr } { i32 300, ptr @c300b, ptr @count },
  { i32, ptr, ptr } { i32 200, ptr null, ptr null }]
@llvm.global_dtors = appending global [3 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 150, ptr @d150, ptr null },
  { i32, ptr, ptr } { i32 65535, ptr @ddefault, ptr null },
  { i32, ptr, ptr } { i32 250, ptr @d250, ptr null }]

declare i32 @printf(ptr, ...)

define internal void @note(ptr %fmt, i32 %n) {
  %c = load i32, ptr @count
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @count
  %s = load i32, ptr @sum
  %m = mul i32 %s, 10
  %s1 = add i32 %m, %n
  store i32 %s1, ptr @sum
  %p = call i32 (ptr, ...) @printf(ptr %fmt, i32 %n)
  ret void
}

define internal void @c101() {
  call void @note(ptr @.ctor, i32 1)
  ret void
}
define internal void @c300() {
  call void @note(ptr @.ctor, i32 3)
  ret void
}
define internal void @c300b() {
  call void @note(ptr @.ctor, i32 4)
  ret void
}
define internal void @cdefault() {
  call void @note(ptr @.ctor, i32 5)
  ret void
}
define internal void @d150() {
  call void @note(ptr @.dtor, i32 150)
  ret void
}
define internal void @d250() {
  call void @note(ptr @.dtor, i32 250)
  ret void
}
define internal void @ddefault() {
  call void @note(ptr @.dtor, i32 65535)
  ret void
}

define i32 @main() {
  %c = load i32, ptr @count
  %s = load i32, ptr @sum
  %p = call i32 (ptr, ...) @printf(ptr @.main, i32 %c, i32 %s)
  ret i32 %c
}
