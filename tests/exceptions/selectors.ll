; The selector values landing pads receive and the type ids llvm.eh.typeid.for gives, printed: they
; must be llc-19's (type ids numbered as its instruction selection meets the types, in reverse
; postorder: a typeid.for before any landing pad first, then each pad's clauses last to first).
; Run by tests/programs/exceptions.rs against llc-19's build.

@_ZTIi = external constant ptr
@_ZTId = external constant ptr
@_ZTIc = external constant ptr
@_ZTIl = external constant ptr
@fmt = private constant [25 x i8] c"selectors(%d) = %d (%d)\0A\00"

declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @__gxx_personality_v0(...)
declare i32 @printf(ptr, ...)
declare i32 @llvm.eh.typeid.for.p0(ptr)

; Throws an int (1), a double (2), a char (3) or a long (4); returns otherwise.
define void @raise(i32 %kind) {
entry:
  switch i32 %kind, label %none [
    i32 1, label %int
    i32 2, label %dbl
    i32 3, label %chr
    i32 4, label %lng
  ]
int:
  %e1 = call ptr @__cxa_allocate_exception(i64 4)
  store i32 1, ptr %e1
  call void @__cxa_throw(ptr %e1, ptr @_ZTIi, ptr null)
  unreachable
dbl:
  %e2 = call ptr @__cxa_allocate_exception(i64 8)
  store double 2.0, ptr %e2
  call void @__cxa_throw(ptr %e2, ptr @_ZTId, ptr null)
  unreachable
chr:
  %e3 = call ptr @__cxa_allocate_exception(i64 1)
  store i8 3, ptr %e3
  call void @__cxa_throw(ptr %e3, ptr @_ZTIc, ptr null)
  unreachable
lng:
  %e4 = call ptr @__cxa_allocate_exception(i64 8)
  store i64 4, ptr %e4
  call void @__cxa_throw(ptr %e4, ptr @_ZTIl, ptr null)
  unreachable
none:
  ret void
}

; Normal return: 100 * typeid(long) + 10 * typeid(double) + typeid(char); a caught exception:
; 1000 + its selector, or 2000 + the selector for the catch-all of a second pad.
define i32 @selectors(i32 %kind) personality ptr @__gxx_personality_v0 {
entry:
  %tl = call i32 @llvm.eh.typeid.for.p0(ptr @_ZTIl)
  invoke void @raise(i32 %kind)
          to label %ok unwind label %lp
ok:
  %td = call i32 @llvm.eh.typeid.for.p0(ptr @_ZTId)
  %tc = call i32 @llvm.eh.typeid.for.p0(ptr @_ZTIc)
  %a = mul i32 %tl, 100
  %b = mul i32 %td, 10
  %ab = add i32 %a, %b
  %abc = add i32 %ab, %tc
  %again = icmp eq i32 %kind, 0
  br i1 %again, label %second, label %done
second:
  invoke void @raise(i32 4)
          to label %done unwind label %lp2
done:
  ret i32 %abc
lp:
  %pad = landingpad { ptr, i32 }
          catch ptr @_ZTId
          catch ptr @_ZTIi
          catch ptr @_ZTIc
  %sel = extractvalue { ptr, i32 } %pad, 1
  %exn = extractvalue { ptr, i32 } %pad, 0
  %o = call ptr @__cxa_begin_catch(ptr %exn)
  call void @__cxa_end_catch()
  %r = add i32 %sel, 1000
  ret i32 %r
lp2:
  %pad2 = landingpad { ptr, i32 }
          catch ptr @_ZTIi
          catch ptr null
  %sel2 = extractvalue { ptr, i32 } %pad2, 1
  %exn2 = extractvalue { ptr, i32 } %pad2, 0
  %o2 = call ptr @__cxa_begin_catch(ptr %exn2)
  call void @__cxa_end_catch()
  %r2 = add i32 %sel2, 2000
  ret i32 %r2
}

define i32 @main() {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = call i32 @selectors(i32 %k)
  %tid = call i32 @selectors(i32 5)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %k, i32 %s, i32 %tid)
  %next = add i32 %k, 1
  %more = icmp slt i32 %next, 4
  br i1 %more, label %loop, label %end
end:
  ret i32 0
}
