; Global variables: a mutable zero-initialised i8 array used as a sieve of Eratosthenes, a private
; constant i16 table checked against it, scalar globals of several widths and linkages, and a global
; counter updated through loads and stores. Exit status: the number of primes below 200 (46).
source_filename = "sieve_globals.ll"

@sieve = internal global [200 x i8] zeroinitializer, align 16
@first_primes = private constant [12 x i16] [i16 2, i16 3, i16 5, i16 7, i16 11, i16 13, i16 17, i16 19, i16 23, i16 29, i16 31, i16 37]
@count = global i32 0
@last_prime = dso_local global i64 -1, align 8
@mismatches = internal global i16 0, align 2
@limit = internal constant i32 200

declare i32 @putchar(i32)

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

; Marks every multiple of each prime p (from p*p) as composite.
define internal void @run_sieve() {
entry:
  %n = load i32, ptr @limit
  br label %outer
outer:
  %p = phi i32 [ 2, %entry ], [ %p1, %outer_next ]
  %pp = mul i32 %p, %p
  %outer_done = icmp uge i32 %pp, %n
  br i1 %outer_done, label %exit, label %test
test:
  %p64 = zext i32 %p to i64
  %slot = getelementptr inbounds [200 x i8], ptr @sieve, i64 0, i64 %p64
  %flag = load i8, ptr %slot
  %composite = icmp ne i8 %flag, 0
  br i1 %composite, label %outer_next, label %mark
mark:
  %m = phi i32 [ %pp, %test ], [ %m1, %mark ]
  %m64 = zext i32 %m to i64
  %ms = getelementptr inbounds [200 x i8], ptr @sieve, i64 0, i64 %m64
  store i8 1, ptr %ms
  %m1 = add i32 %m, %p
  %mark_more = icmp ult i32 %m1, %n
  br i1 %mark_more, label %mark, label %outer_next
outer_next:
  %p1 = add i32 %p, 1
  br label %outer
exit:
  ret void
}

define i32 @main() {
entry:
  call void @run_sieve()
  br label %scan
scan:
  %i = phi i64 [ 2, %entry ], [ %i1, %scan_next ]
  %slot = getelementptr inbounds [200 x i8], ptr @sieve, i64 0, i64 %i
  %flag = load i8, ptr %slot
  %is_prime = icmp eq i8 %flag, 0
  br i1 %is_prime, label %prime, label %scan_next
prime:
  %c = load i32, ptr @count
  ; Prints the primes below 60 and checks the first twelve against the constant table.
  %small = icmp ult i64 %i, 60
  br i1 %small, label %show, label %check
show:
  call void @print_u64(i64 %i)
  call i32 @putchar(i32 32)
  br label %check
check:
  %in_table = icmp ult i32 %c, 12
  br i1 %in_table, label %compare, label %record
compare:
  %c64 = zext i32 %c to i64
  %te = getelementptr inbounds [12 x i16], ptr @first_primes, i64 0, i64 %c64
  %tv = load i16, ptr %te, align 2
  %tv64 = zext i16 %tv to i64
  %same = icmp eq i64 %tv64, %i
  br i1 %same, label %record, label %bad
bad:
  %mm = load i16, ptr @mismatches
  %mm1 = add i16 %mm, 1
  store i16 %mm1, ptr @mismatches
  br label %record
record:
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @count
  store i64 %i, ptr @last_prime, align 8
  br label %scan_next
scan_next:
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, 200
  br i1 %more, label %scan, label %done
done:
  call i32 @putchar(i32 10)
  %last = load i64, ptr @last_prime
  call void @print_u64(i64 %last)
  call i32 @putchar(i32 10)
  %mis = load i16, ptr @mismatches
  %mis64 = zext i16 %mis to i64
  call void @print_u64(i64 %mis64)
  call i32 @putchar(i32 10)
  %total = load i32, ptr @count
  ret i32 %total
}
