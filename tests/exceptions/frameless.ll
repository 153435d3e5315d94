; An exception unwinding through functions that set up no frame pointer (x86-64: no RBP frame where
; nothing needs one): `busy` recurses, keeping values in callee-saved registers and a stack slot
; across its calls, and the innermost call's `thrower` throws. `catch_busy` keeps its own values in
; callee-saved registers across the invoke; the unwinder restores them from the slots `busy`'s
; pushes saved them in, found through its RSP-based unwind rows, so its sums after the catch are
; right only if every row is. Run by tests/programs/exceptions.rs against llc-19's build.

@_ZTIi = external constant ptr
@fmt = private constant [28 x i8] c"catch_busy(%ld, %ld) = %ld\0A\00"

declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @__gxx_personality_v0(...)
declare i32 @printf(ptr, ...)

; Throws the int `v`.
define void @thrower(i64 %v) noinline {
entry:
  %e = call ptr @__cxa_allocate_exception(i64 4)
  %t = trunc i64 %v to i32
  store i32 %t, ptr %e
  call void @__cxa_throw(ptr %e, ptr @_ZTIi, ptr null)
  unreachable
}

; Five values live across each call, one more in a slot; throws at depth 0.
define i64 @busy(i64 %a, i64 %b, i64 %n) noinline {
entry:
  %slot = alloca [2 x i64], align 8
  %x1 = mul i64 %a, 3
  %x2 = add i64 %b, 7
  %x3 = xor i64 %a, %b
  %x4 = mul i64 %b, %b
  %x5 = sub i64 %a, 11
  %p1 = getelementptr [2 x i64], ptr %slot, i64 0, i64 1
  store volatile i64 %x4, ptr %p1
  %last = icmp eq i64 %n, 0
  br i1 %last, label %throw, label %deeper
throw:
  call void @thrower(i64 %x1)
  unreachable
deeper:
  %n1 = sub i64 %n, 1
  %r = call i64 @busy(i64 %x2, i64 %x3, i64 %n1)
  %v4 = load volatile i64, ptr %p1
  %s1 = add i64 %r, %x1
  %s2 = add i64 %s1, %x2
  %s3 = mul i64 %s2, %x3
  %s4 = add i64 %s3, %v4
  %s5 = xor i64 %s4, %x5
  ret i64 %s5
}

; What `busy(a, b, depth)` returns, or the thrown int mixed with values kept across the invoke.
define i64 @catch_busy(i64 %a, i64 %b, i64 %depth) personality ptr @__gxx_personality_v0 {
entry:
  %y1 = mul i64 %a, 5
  %y2 = add i64 %b, 13
  %y3 = xor i64 %a, 255
  %y4 = mul i64 %b, 7
  %y5 = sub i64 %a, %b
  %r = invoke i64 @busy(i64 %a, i64 %b, i64 %depth)
          to label %ok unwind label %lp
ok:
  ret i64 %r
lp:
  %pad = landingpad { ptr, i32 }
          catch ptr @_ZTIi
  %exn = extractvalue { ptr, i32 } %pad, 0
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  %v = load i32, ptr %obj
  call void @__cxa_end_catch()
  %w = sext i32 %v to i64
  %m1 = mul i64 %w, 1000003
  %m2 = add i64 %m1, %y1
  %m3 = mul i64 %m2, %y2
  %m4 = add i64 %m3, %y3
  %m5 = mul i64 %m4, %y4
  %m6 = add i64 %m5, %y5
  ret i64 %m6
}

define i32 @main() {
entry:
  %r0 = call i64 @catch_busy(i64 2, i64 3, i64 0)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 2, i64 3, i64 %r0)
  %r1 = call i64 @catch_busy(i64 5, i64 9, i64 1)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 5, i64 9, i64 %r1)
  %r4 = call i64 @catch_busy(i64 17, i64 -4, i64 4)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 17, i64 -4, i64 %r4)
  ret i32 0
}
