; `inrange(START, END)` on getelementptr constants, as clang++ writes vtable addresses (issue 27,
; item 5): a hint on where loads may go; the address is the GEP's.
@.fmt = private unnamed_addr constant [7 x i8] c"%d %d\0A\00"
@vtable = internal unnamed_addr constant { [4 x ptr] } { [4 x ptr] [ptr null, ptr null, ptr @one, ptr @two] }
@object = internal global ptr getelementptr inbounds inrange(-16, 16) ({ [4 x ptr] }, ptr @vtable, i32 0, i32 0, i32 2)

declare i32 @printf(ptr, ...)

define internal i32 @one() {
  ret i32 1
}

define internal i32 @two() {
  ret i32 2
}

define i32 @main() {
  %vt = load ptr, ptr @object
  %f0 = load ptr, ptr %vt
  %a = call i32 %f0()
  %direct = getelementptr inbounds i8, ptr getelementptr inbounds inrange(-16, 16) ({ [4 x ptr] }, ptr @vtable, i32 0, i32 0, i32 2), i64 8
  %f1 = load ptr, ptr %direct
  %b = call i32 %f1()
  %p = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %a, i32 %b)
  ret i32 0
}
