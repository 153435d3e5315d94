; f0 -> f1 -> f2 -> @runtime_entry, for capi/tests/frame_walk.c: each function computes ten values
; from its arguments, prints them (print_value(level, index, value)), keeps them live across its call
; (some in callee-saved registers, the others spilled), with a stack map (ID 100 + level) at the call's
; return address naming them, and prints them again after it (level 10 + level). Compile with the
; frame-table layout (stackmap_version 0x72).
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @runtime_entry(i64)
declare void @print_value(i64, i64, i64)

define void @f0(i64 %a, i64 %b) {
  %t0 = mul i64 %a, 3
  %v0 = add i64 %t0, 0
  %t1 = xor i64 %b, 4369
  %v1 = add i64 %t1, 1
  %t2 = mul i64 %v1, %v0
  %v2 = add i64 %t2, 2
  %t3 = sub i64 %v2, %v1
  %v3 = add i64 %t3, 3
  %t4 = add i64 %v3, %v2
  %v4 = add i64 %t4, 4
  %t5 = xor i64 %v4, %v3
  %v5 = add i64 %t5, 5
  %t6 = mul i64 %v5, %v4
  %v6 = add i64 %t6, 6
  %t7 = sub i64 %v6, %v5
  %v7 = add i64 %t7, 7
  %t8 = add i64 %v7, %v6
  %v8 = add i64 %t8, 8
  %v9 = trunc i64 %t8 to i32
  %w9 = zext i32 %v9 to i64
  call void @print_value(i64 0, i64 0, i64 %v0)
  call void @print_value(i64 0, i64 1, i64 %v1)
  call void @print_value(i64 0, i64 2, i64 %v2)
  call void @print_value(i64 0, i64 3, i64 %v3)
  call void @print_value(i64 0, i64 4, i64 %v4)
  call void @print_value(i64 0, i64 5, i64 %v5)
  call void @print_value(i64 0, i64 6, i64 %v6)
  call void @print_value(i64 0, i64 7, i64 %v7)
  call void @print_value(i64 0, i64 8, i64 %v8)
  call void @print_value(i64 0, i64 9, i64 %w9)
  call void @f1(i64 %v8, i64 %v7)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 100, i32 0, i64 %v0, i64 %v1, i64 %v2, i64 %v3, i64 %v4, i64 %v5, i64 %v6, i64 %v7, i64 %v8, i32 %v9)
  %u9 = zext i32 %v9 to i64
  call void @print_value(i64 10, i64 0, i64 %v0)
  call void @print_value(i64 10, i64 1, i64 %v1)
  call void @print_value(i64 10, i64 2, i64 %v2)
  call void @print_value(i64 10, i64 3, i64 %v3)
  call void @print_value(i64 10, i64 4, i64 %v4)
  call void @print_value(i64 10, i64 5, i64 %v5)
  call void @print_value(i64 10, i64 6, i64 %v6)
  call void @print_value(i64 10, i64 7, i64 %v7)
  call void @print_value(i64 10, i64 8, i64 %v8)
  call void @print_value(i64 10, i64 9, i64 %u9)
  ret void
}

define void @f1(i64 %a, i64 %b) {
  %t0 = mul i64 %a, 5
  %v0 = add i64 %t0, 1000
  %t1 = xor i64 %b, 8738
  %v1 = add i64 %t1, 1001
  %t2 = mul i64 %v1, %v0
  %v2 = add i64 %t2, 1002
  %t3 = sub i64 %v2, %v1
  %v3 = add i64 %t3, 1003
  %t4 = add i64 %v3, %v2
  %v4 = add i64 %t4, 1004
  %t5 = xor i64 %v4, %v3
  %v5 = add i64 %t5, 1005
  %t6 = mul i64 %v5, %v4
  %v6 = add i64 %t6, 1006
  %t7 = sub i64 %v6, %v5
  %v7 = add i64 %t7, 1007
  %t8 = add i64 %v7, %v6
  %v8 = add i64 %t8, 1008
  %v9 = trunc i64 %t8 to i32
  %w9 = zext i32 %v9 to i64
  call void @print_value(i64 1, i64 0, i64 %v0)
  call void @print_value(i64 1, i64 1, i64 %v1)
  call void @print_value(i64 1, i64 2, i64 %v2)
  call void @print_value(i64 1, i64 3, i64 %v3)
  call void @print_value(i64 1, i64 4, i64 %v4)
  call void @print_value(i64 1, i64 5, i64 %v5)
  call void @print_value(i64 1, i64 6, i64 %v6)
  call void @print_value(i64 1, i64 7, i64 %v7)
  call void @print_value(i64 1, i64 8, i64 %v8)
  call void @print_value(i64 1, i64 9, i64 %w9)
  call void @f2(i64 %v8, i64 %v7)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 101, i32 0, i64 %v0, i64 %v1, i64 %v2, i64 %v3, i64 %v4, i64 %v5, i64 %v6, i64 %v7, i64 %v8, i32 %v9)
  %u9 = zext i32 %v9 to i64
  call void @print_value(i64 11, i64 0, i64 %v0)
  call void @print_value(i64 11, i64 1, i64 %v1)
  call void @print_value(i64 11, i64 2, i64 %v2)
  call void @print_value(i64 11, i64 3, i64 %v3)
  call void @print_value(i64 11, i64 4, i64 %v4)
  call void @print_value(i64 11, i64 5, i64 %v5)
  call void @print_value(i64 11, i64 6, i64 %v6)
  call void @print_value(i64 11, i64 7, i64 %v7)
  call void @print_value(i64 11, i64 8, i64 %v8)
  call void @print_value(i64 11, i64 9, i64 %u9)
  ret void
}

define void @f2(i64 %a, i64 %b) {
  %t0 = mul i64 %a, 7
  %v0 = add i64 %t0, 2000
  %t1 = xor i64 %b, 13107
  %v1 = add i64 %t1, 2001
  %t2 = mul i64 %v1, %v0
  %v2 = add i64 %t2, 2002
  %t3 = sub i64 %v2, %v1
  %v3 = add i64 %t3, 2003
  %t4 = add i64 %v3, %v2
  %v4 = add i64 %t4, 2004
  %t5 = xor i64 %v4, %v3
  %v5 = add i64 %t5, 2005
  %t6 = mul i64 %v5, %v4
  %v6 = add i64 %t6, 2006
  %t7 = sub i64 %v6, %v5
  %v7 = add i64 %t7, 2007
  %t8 = add i64 %v7, %v6
  %v8 = add i64 %t8, 2008
  %v9 = trunc i64 %t8 to i32
  %w9 = zext i32 %v9 to i64
  call void @print_value(i64 2, i64 0, i64 %v0)
  call void @print_value(i64 2, i64 1, i64 %v1)
  call void @print_value(i64 2, i64 2, i64 %v2)
  call void @print_value(i64 2, i64 3, i64 %v3)
  call void @print_value(i64 2, i64 4, i64 %v4)
  call void @print_value(i64 2, i64 5, i64 %v5)
  call void @print_value(i64 2, i64 6, i64 %v6)
  call void @print_value(i64 2, i64 7, i64 %v7)
  call void @print_value(i64 2, i64 8, i64 %v8)
  call void @print_value(i64 2, i64 9, i64 %w9)
  call void @runtime_entry(i64 %v8)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 102, i32 0, i64 %v0, i64 %v1, i64 %v2, i64 %v3, i64 %v4, i64 %v5, i64 %v6, i64 %v7, i64 %v8, i32 %v9)
  %u9 = zext i32 %v9 to i64
  call void @print_value(i64 12, i64 0, i64 %v0)
  call void @print_value(i64 12, i64 1, i64 %v1)
  call void @print_value(i64 12, i64 2, i64 %v2)
  call void @print_value(i64 12, i64 3, i64 %v3)
  call void @print_value(i64 12, i64 4, i64 %v4)
  call void @print_value(i64 12, i64 5, i64 %v5)
  call void @print_value(i64 12, i64 6, i64 %v6)
  call void @print_value(i64 12, i64 7, i64 %v7)
  call void @print_value(i64 12, i64 8, i64 %v8)
  call void @print_value(i64 12, i64 9, i64 %u9)
  ret void
}
