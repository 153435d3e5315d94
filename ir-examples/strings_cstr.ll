; C strings in globals: private and internal c"..." constants with escapes (\0A, \22, \5C), a nested
; array of fixed-width words, strlen and printing by scanning for NUL, reversal into an alloca'd buffer,
; upper-casing into a mutable global buffer, and counting vowels with a switch on i8.
; Exit status: the total vowel count (9) + 10 * the number of words (3) = 39.
source_filename = "strings_cstr.ll"

@hello = private constant [14 x i8] c"Hello, world!\00"
@quoted = internal constant [17 x i8] c"say \22hi\22 \5C done\0A\00"
@words = internal constant [3 x [6 x i8]] [[6 x i8] c"apple\00", [6 x i8] c"berry\00", [6 x i8] c"cocoa\00"]
@upper = internal global [32 x i8] zeroinitializer

declare i32 @putchar(i32)

define internal i64 @strlen(ptr %s) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr inbounds i8, ptr %s, i64 %i
  %c = load i8, ptr %p
  %i1 = add i64 %i, 1
  %more = icmp ne i8 %c, 0
  br i1 %more, label %loop, label %exit
exit:
  ret i64 %i
}

define internal void @puts_nl(ptr %s) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %s, %entry ], [ %p1, %body ]
  %c = load i8, ptr %p
  %end = icmp eq i8 %c, 0
  br i1 %end, label %exit, label %body
body:
  %c32 = zext i8 %c to i32
  call i32 @putchar(i32 %c32)
  %p1 = getelementptr inbounds i8, ptr %p, i64 1
  br label %loop
exit:
  call i32 @putchar(i32 10)
  ret void
}

define internal i32 @vowels(ptr %s) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %s, %entry ], [ %p1, %next ]
  %n = phi i32 [ 0, %entry ], [ %n1, %next ]
  %c = load i8, ptr %p
  switch i8 %c, label %consonant [
    i8 0, label %exit
    i8 97, label %vowel
    i8 101, label %vowel
    i8 105, label %vowel
    i8 111, label %vowel
    i8 117, label %vowel
    i8 65, label %vowel
    i8 69, label %vowel
    i8 79, label %vowel
  ]
vowel:
  br label %next
consonant:
  br label %next
next:
  %inc = phi i32 [ 1, %vowel ], [ 0, %consonant ]
  %n1 = add i32 %n, %inc
  %p1 = getelementptr inbounds i8, ptr %p, i64 1
  br label %loop
exit:
  ret i32 %n
}

define i32 @main() {
entry:
  call void @puts_nl(ptr @hello)
  %len = call i64 @strlen(ptr @hello)
  %len32 = trunc i64 %len to i32
  %tens = udiv i32 %len32, 10
  %ones = urem i32 %len32, 10
  %tc = add i32 %tens, 48
  %oc = add i32 %ones, 48
  call i32 @putchar(i32 %tc)
  call i32 @putchar(i32 %oc)
  call i32 @putchar(i32 10)
  ; Reverse into a stack buffer, NUL-terminated.
  %rev = alloca [14 x i8]
  br label %rloop
rloop:
  %i = phi i64 [ 0, %entry ], [ %i1, %rloop ]
  %src_i0 = sub i64 %len, 1
  %src_i = sub i64 %src_i0, %i
  %src = getelementptr inbounds [14 x i8], ptr @hello, i64 0, i64 %src_i
  %ch = load i8, ptr %src
  %dst = getelementptr inbounds [14 x i8], ptr %rev, i64 0, i64 %i
  store i8 %ch, ptr %dst
  %i1 = add i64 %i, 1
  %rmore = icmp ult i64 %i1, %len
  br i1 %rmore, label %rloop, label %rdone
rdone:
  %nul = getelementptr inbounds [14 x i8], ptr %rev, i64 0, i64 %len
  store i8 0, ptr %nul
  call void @puts_nl(ptr %rev)
  ; Upper-case a..z into the global buffer.
  br label %uloop
uloop:
  %j = phi i64 [ 0, %rdone ], [ %j1, %ucopy ]
  %sp = getelementptr inbounds [14 x i8], ptr @hello, i64 0, i64 %j
  %sc = load i8, ptr %sp
  %ge_a = icmp uge i8 %sc, 97
  %le_z = icmp ule i8 %sc, 122
  %is_lower = and i1 %ge_a, %le_z
  %up = sub i8 %sc, 32
  %uc = select i1 %is_lower, i8 %up, i8 %sc
  br label %ucopy
ucopy:
  %dp = getelementptr inbounds [32 x i8], ptr @upper, i64 0, i64 %j
  store i8 %uc, ptr %dp
  %j1 = add i64 %j, 1
  %umore = icmp ule i64 %j1, %len
  br i1 %umore, label %uloop, label %udone
udone:
  call void @puts_nl(ptr @upper)
  %q = getelementptr inbounds [17 x i8], ptr @quoted, i64 0, i64 0
  call void @puts_nl(ptr %q)
  %v0 = call i32 @vowels(ptr @hello)
  ; Words: print each and count vowels.
  br label %wloop
wloop:
  %w = phi i64 [ 0, %udone ], [ %w1, %wloop ]
  %vacc = phi i32 [ %v0, %udone ], [ %vacc1, %wloop ]
  %wp = getelementptr inbounds [3 x [6 x i8]], ptr @words, i64 0, i64 %w, i64 0
  call void @puts_nl(ptr %wp)
  %vw = call i32 @vowels(ptr %wp)
  %vacc1 = add i32 %vacc, %vw
  %w1 = add i64 %w, 1
  %wmore = icmp ult i64 %w1, 3
  br i1 %wmore, label %wloop, label %wdone
wdone:
  %w32 = trunc i64 %w1 to i32
  %w10 = mul i32 %w32, 10
  %st = add i32 %vacc1, %w10
  ret i32 %st
}
