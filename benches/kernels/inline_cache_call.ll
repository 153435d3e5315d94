; An inline-cache call site: a ccc patch point (ID 3, 16 bytes) whose target is the module's
; @property_get, called on every iteration with a shape and a key, with the loop state as live values
; (what a JIT reads to patch the site or deoptimise). Prints a checksum; exit status: checksum & 127.
source_filename = "inline_cache_call.ll"

@trips = internal global i64 60000000, align 8

declare i32 @putchar(i32)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)

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

; The slow path a cache miss would call: a property load by shape.
define internal i64 @property_get(i64 %shape, i64 %key) {
entry:
  switch i64 %shape, label %other [ i64 0, label %s0
                                    i64 1, label %s1
                                    i64 2, label %s2 ]
s0:
  %a = add i64 %key, 17
  ret i64 %a
s1:
  %b = mul i64 %key, 3
  ret i64 %b
s2:
  %c = xor i64 %key, 21845
  ret i64 %c
other:
  %d = lshr i64 %key, 1
  ret i64 %d
}

define i32 @main() {
entry:
  %n = load volatile i64, ptr @trips
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ 1, %entry ], [ %acc2, %loop ]
  %rot = phi i64 [ 0, %entry ], [ %rot1, %loop ]
  %shape = and i64 %rot, 3
  %v = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 3, i32 16, ptr @property_get, i32 2, i64 %shape, i64 %i, i64 %i, i64 %acc, i64 %n)
  %acc0 = mul i64 %acc, 31
  %acc1 = add i64 %acc0, %v
  %acc2 = xor i64 %acc1, %shape
  %step = lshr i64 %acc2, 61
  %rot0 = add i64 %rot, 1
  %rot1 = add i64 %rot0, %step
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %done
done:
  call void @print_u64(i64 %acc2)
  call i32 @putchar(i32 10)
  %t = trunc i64 %acc2 to i32
  %st = and i32 %t, 127
  ret i32 %st
}
