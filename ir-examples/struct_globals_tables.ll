; Aggregate global initialisers: an array of structs holding function pointers and strings (a
; dispatch table), structs pointing into other globals through getelementptr constant expressions
; (nested, over arrays of structs), a struct with a nested array and zeroinitializer members, a
; packed struct, a pointer difference folded from ptrtoint/sub; loads through constant-expression
; operands and calls through the table. Prints with putchar. Exit status: 61.
source_filename = "struct_globals_tables.ll"

%struct.op = type { ptr, ptr, i32 }
%struct.cfg = type { i32, [2 x %struct.item], ptr, ptr }
%struct.item = type { i16, i8, i64 }

@name_twice = private unnamed_addr constant [6 x i8] c"twice\00", align 1
@name_square = private unnamed_addr constant [7 x i8] c"square\00", align 1
@name_negate = private unnamed_addr constant [7 x i8] c"negate\00", align 1
@ops = internal constant [3 x %struct.op] [%struct.op { ptr @twice, ptr @name_twice, i32 2 }, %struct.op { ptr @square, ptr @name_square, i32 1 }, %struct.op { ptr @negate, ptr getelementptr inbounds ([7 x i8], ptr @name_negate, i64 0, i64 0), i32 3 }], align 16
@counter = internal global i32 5, align 4
@cfg = internal global %struct.cfg { i32 7, [2 x %struct.item] [%struct.item { i16 -3, i8 120, i64 100000000000 }, %struct.item zeroinitializer], ptr @counter, ptr getelementptr inbounds (%struct.cfg, ptr @cfg, i32 0, i32 1, i64 1, i32 2) }, align 8
@third = internal global ptr getelementptr inbounds ([2 x %struct.item], ptr getelementptr inbounds (%struct.cfg, ptr @cfg, i32 0, i32 1), i64 0, i64 1), align 8
@flags = internal global <{ i8, i32, i8 }> <{ i8 1, i32 305419896, i8 2 }>, align 1
@span = internal global i64 sub (i64 ptrtoint (ptr getelementptr inbounds ([3 x %struct.op], ptr @ops, i64 0, i64 2) to i64), i64 ptrtoint (ptr @ops to i64)), align 8

declare i32 @putchar(i32)

define internal i64 @twice(i64 %x) {
  %r = shl i64 %x, 1
  ret i64 %r
}

define internal i64 @square(i64 %x) {
  %r = mul i64 %x, %x
  ret i64 %r
}

define internal i64 @negate(i64 %x) {
  %r = sub i64 0, %x
  ret i64 %r
}

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

define internal void @print_i64(i64 %v) {
entry:
  call i32 @putchar(i32 32)
  %neg = icmp slt i64 %v, 0
  br i1 %neg, label %minus, label %plain
minus:
  call i32 @putchar(i32 45)
  %m = sub i64 0, %v
  call void @print_u64(i64 %m)
  ret void
plain:
  call void @print_u64(i64 %v)
  ret void
}

define internal void @print_str(ptr %s) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %s, %entry ], [ %next, %char ]
  %ch = load i8, ptr %p, align 1
  %end = icmp eq i8 %ch, 0
  br i1 %end, label %done, label %char
char:
  %ch32 = zext i8 %ch to i32
  call i32 @putchar(i32 %ch32)
  %next = getelementptr inbounds i8, ptr %p, i64 1
  br label %loop
done:
  ret void
}

define i32 @main() {
entry:
  br label %loop

; Apply each table entry `times` times to a running value, printing "name: value".
loop:
  %i = phi i64 [ 0, %entry ], [ %i2, %next ]
  %v = phi i64 [ 3, %entry ], [ %v3, %next ]
  %fnp = getelementptr inbounds [3 x %struct.op], ptr @ops, i64 0, i64 %i, i32 0
  %fn = load ptr, ptr %fnp, align 8
  %namep = getelementptr inbounds [3 x %struct.op], ptr @ops, i64 0, i64 %i, i32 1
  %name = load ptr, ptr %namep, align 8
  %timesp = getelementptr inbounds [3 x %struct.op], ptr @ops, i64 0, i64 %i, i32 2
  %times = load i32, ptr %timesp, align 8
  br label %apply
apply:
  %k = phi i32 [ 0, %loop ], [ %k2, %apply ]
  %v2 = phi i64 [ %v, %loop ], [ %v1, %apply ]
  %v1 = call i64 %fn(i64 %v2)
  %k2 = add i32 %k, 1
  %again = icmp slt i32 %k2, %times
  br i1 %again, label %apply, label %next
next:
  %v3 = phi i64 [ %v1, %apply ]
  call void @print_str(ptr %name)
  call void @print_i64(i64 %v3)
  call i32 @putchar(i32 10)
  %i2 = add i64 %i, 1
  %more = icmp ult i64 %i2, 3
  br i1 %more, label %loop, label %globals

globals:
  %id = load i32, ptr @cfg, align 8
  %a = load i16, ptr getelementptr inbounds (%struct.cfg, ptr @cfg, i32 0, i32 1, i64 0, i32 0), align 8
  %b = load i8, ptr getelementptr inbounds (%struct.cfg, ptr @cfg, i32 0, i32 1, i64 0, i32 1), align 2
  %c = load i64, ptr getelementptr inbounds (%struct.cfg, ptr @cfg, i32 0, i32 1, i64 0, i32 2), align 8
  %cnt = load ptr, ptr getelementptr inbounds (%struct.cfg, ptr @cfg, i32 0, i32 2), align 8
  %n = load i32, ptr %cnt, align 4
  %n1 = add i32 %n, 1
  store i32 %n1, ptr %cnt, align 4
  %tail = load ptr, ptr getelementptr inbounds (%struct.cfg, ptr @cfg, i32 0, i32 3), align 8
  store i64 -42, ptr %tail, align 8
  %third = load ptr, ptr @third, align 8
  %t2p = getelementptr inbounds %struct.item, ptr %third, i32 0, i32 2
  %t2 = load i64, ptr %t2p, align 8
  %fl = load i32, ptr getelementptr inbounds (<{ i8, i32, i8 }>, ptr @flags, i32 0, i32 1), align 1
  %span = load i64, ptr @span, align 8
  %counter = load i32, ptr @counter, align 4
  %a64 = sext i16 %a to i64
  %b64 = zext i8 %b to i64
  %fl64 = zext i32 %fl to i64
  %cn64 = sext i32 %counter to i64
  call void @print_i64(i64 %a64)
  call void @print_i64(i64 %b64)
  call void @print_i64(i64 %c)
  call void @print_i64(i64 %t2)
  call void @print_i64(i64 %fl64)
  call void @print_i64(i64 %span)
  call void @print_i64(i64 %cn64)
  call i32 @putchar(i32 10)
  %s1 = add i32 %id, %counter
  %span32 = trunc i64 %span to i32
  %s2 = add i32 %s1, %span32
  ret i32 %s2
}
