; Allocas aligned to 64, 128 and 4096 bytes in a function that recurses (six realigned frames on the
; stack at once), with ten arguments (the last ones on the stack on both targets) and values live
; across the call (callee-saved registers). Stack map 1 records the three allocas (Direct) and four
; integers. At depth d the objects hold 900 + d, 1000 + d (and d in the second element) and 7 * d.
; Exit status: the sum of every level's loads, modulo 251.
declare void @llvm.experimental.stackmap(i64, i32, ...)

define internal i64 @f(i64 %depth, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10) {
entry:
  %o64 = alloca i64, align 64
  %o128 = alloca [2 x i64], align 128
  %o4096 = alloca i64, align 4096
  %k64 = add i64 %a9, %depth
  store i64 %k64, ptr %o64
  %k128 = add i64 %a10, %depth
  store i64 %k128, ptr %o128
  %second = getelementptr [2 x i64], ptr %o128, i64 0, i64 1
  store i64 %depth, ptr %second
  %k4096 = mul i64 %depth, 7
  store i64 %k4096, ptr %o4096
  %x = mul i64 %a2, %depth
  %stop = icmp eq i64 %depth, 0
  br i1 %stop, label %join, label %deeper

deeper:
  %d1 = sub i64 %depth, 1
  %r = call i64 @f(i64 %d1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10)
  br label %join

join:
  %inner = phi i64 [ %r, %deeper ], [ 0, %entry ]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, ptr %o64, ptr %o128, ptr %o4096, i64 %depth, i64 %x, i64 %a9, i64 %a10)
  %v64 = load i64, ptr %o64
  %v128 = load i64, ptr %second
  %v4096 = load i64, ptr %o4096
  %s1 = add i64 %inner, %v64
  %s2 = add i64 %s1, %v128
  %s3 = add i64 %s2, %v4096
  %s4 = add i64 %s3, %x
  %s5 = add i64 %s4, %a8
  ret i64 %s5
}

define i32 @main() {
entry:
  %r = call i64 @f(i64 5, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 900, i64 1000)
  %m = urem i64 %r, 251
  %t = trunc i64 %m to i32
  ret i32 %t
}
