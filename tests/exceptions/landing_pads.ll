; Landing pads written by hand: catch, filter and cleanup clauses on one pad, the selector compared
; with llvm.eh.typeid.for, phis in a landing pad's block fed by two invokes, an invoke's result
; used on its normal edge, resume to an outer frame, an invoke through a function pointer and a
; catch-all. Run by tests/programs/exceptions.rs against llc-19's build.

@_ZTIi = external constant ptr
@_ZTId = external constant ptr
@middle_ptr = global ptr @middle
@fmt_classify = private constant [19 x i8] c"classify(%d) = %d\0A\00"
@fmt_outer = private constant [16 x i8] c"outer(%d) = %d\0A\00"
@fmt_cleanup = private constant [33 x i8] c"cleanup in middle after call %d\0A\00"

declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @__gxx_personality_v0(...)
declare i32 @printf(ptr, ...)
declare i32 @llvm.eh.typeid.for.p0(ptr)

; Throws int 41 (kind 1) or double 2.5 (kind 2); returns otherwise.
define void @raise(i32 %kind) {
entry:
  switch i32 %kind, label %none [
    i32 1, label %int
    i32 2, label %dbl
  ]
int:
  %e = call ptr @__cxa_allocate_exception(i64 4)
  store i32 41, ptr %e
  call void @__cxa_throw(ptr %e, ptr @_ZTIi, ptr null)
  unreachable
dbl:
  %d = call ptr @__cxa_allocate_exception(i64 8)
  store double 2.5, ptr %d
  call void @__cxa_throw(ptr %d, ptr @_ZTId, ptr null)
  unreachable
none:
  ret void
}

; The int's value when an int is caught, -1000 when the filter stops a double (a negative
; selector), 0 when nothing is thrown.
define i32 @classify(i32 %kind) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @raise(i32 %kind)
          to label %ok unwind label %lp
ok:
  ret i32 0
lp:
  %pad = landingpad { ptr, i32 }
          cleanup
          catch ptr @_ZTIi
          filter [1 x ptr] [ptr @_ZTIi]
  %exn = extractvalue { ptr, i32 } %pad, 0
  %sel = extractvalue { ptr, i32 } %pad, 1
  %tid = call i32 @llvm.eh.typeid.for.p0(ptr @_ZTIi)
  %is_int = icmp eq i32 %sel, %tid
  br i1 %is_int, label %caught_int, label %other
caught_int:
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  %v = load i32, ptr %obj
  call void @__cxa_end_catch()
  ret i32 %v
other:
  %negative = icmp slt i32 %sel, 0
  br i1 %negative, label %filtered, label %cleanup
filtered:
  %o = call ptr @__cxa_begin_catch(ptr %exn)
  call void @__cxa_end_catch()
  ret i32 -1000
cleanup:
  resume { ptr, i32 } %pad
}

; Twice `k`, after throwing an int when `k` is 3.
define i32 @twice(i32 %k) {
entry:
  %three = icmp eq i32 %k, 3
  br i1 %three, label %throw, label %done
throw:
  call void @raise(i32 1)
  br label %done
done:
  %r = mul i32 %k, 2
  ret i32 %r
}

; Catches doubles (100 times the call that threw); cleans up and resumes for anything else.
define i32 @middle(i32 %kind) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @raise(i32 %kind)
          to label %first unwind label %lp
first:
  %r = invoke i32 @twice(i32 %kind)
          to label %done unwind label %lp
done:
  %sum = add i32 %r, 1
  ret i32 %sum
lp:
  %which = phi i32 [ 1, %entry ], [ 2, %first ]
  %pad = landingpad { ptr, i32 }
          cleanup
          catch ptr @_ZTId
  %exn = extractvalue { ptr, i32 } %pad, 0
  %sel = extractvalue { ptr, i32 } %pad, 1
  %tid = call i32 @llvm.eh.typeid.for.p0(ptr @_ZTId)
  %is_double = icmp eq i32 %sel, %tid
  br i1 %is_double, label %caught, label %clean
caught:
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  call void @__cxa_end_catch()
  %hundreds = mul i32 %which, 100
  ret i32 %hundreds
clean:
  call i32 (ptr, ...) @printf(ptr @fmt_cleanup, i32 %which)
  resume { ptr, i32 } %pad
}

; Calls `middle` through a pointer; catches everything as -1.
define i32 @outer(i32 %kind) personality ptr @__gxx_personality_v0 {
entry:
  %fp = load ptr, ptr @middle_ptr
  %r = invoke i32 %fp(i32 %kind)
          to label %ok unwind label %lp
ok:
  ret i32 %r
lp:
  %pad = landingpad { ptr, i32 }
          catch ptr null
  %exn = extractvalue { ptr, i32 } %pad, 0
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  call void @__cxa_end_catch()
  ret i32 -1
}

define i32 @main() {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %next, %loop ]
  %c = call i32 @classify(i32 %k)
  call i32 (ptr, ...) @printf(ptr @fmt_classify, i32 %k, i32 %c)
  %o = call i32 @outer(i32 %k)
  call i32 (ptr, ...) @printf(ptr @fmt_outer, i32 %k, i32 %o)
  %next = add i32 %k, 1
  %more = icmp slt i32 %next, 4
  br i1 %more, label %loop, label %end
end:
  ret i32 0
}
