; A sieve of Eratosthenes over a 128 KiB global byte array, repeated: stack maps in branches, one
; (ID 4) where a prime is found and one (ID 5) on the marking loop's back edge, plus an anyregcc patch
; point (ID 6, a 16-byte nop region) once per round. Prints the prime count and a checksum of the
; primes; exit status: checksum & 127.
source_filename = "sieve_branches.ll"

@flags = internal global [131072 x i8] zeroinitializer, align 16
; Volatile loads of this keep llc-19 from folding the repeat loop.
@rounds = internal global i64 1000, align 8

declare i32 @putchar(i32)
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)

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

define i32 @main() {
entry:
  %rounds = load volatile i64, ptr @rounds
  br label %round
round:
  %rd = phi i64 [ 0, %entry ], [ %rd1, %round_end ]
  %hin = phi i64 [ 0, %entry ], [ %hout, %round_end ]
  call anyregcc void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 6, i32 16, ptr null, i32 2, i64 %rd, i64 %hin, i64 %rounds)
  br label %clear
clear:
  %z = phi i64 [ 0, %round ], [ %z1, %clear ]
  %pz = getelementptr inbounds [131072 x i8], ptr @flags, i64 0, i64 %z
  store i8 0, ptr %pz
  %z1 = add i64 %z, 1
  %zmore = icmp ult i64 %z1, 131072
  br i1 %zmore, label %clear, label %scan
scan:
  %p = phi i64 [ 2, %clear ], [ %p1, %next ]
  %count = phi i64 [ 0, %clear ], [ %count1, %next ]
  %h = phi i64 [ %hin, %clear ], [ %h1, %next ]
  %pp = getelementptr inbounds [131072 x i8], ptr @flags, i64 0, i64 %p
  %flag = load i8, ptr %pp
  %composite = icmp ne i8 %flag, 0
  br i1 %composite, label %next, label %prime
prime:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 4, i32 0, i64 %p, i64 %count, i64 %h, i64 %rd)
  %hm = mul i64 %h, 1000003
  %hp = add i64 %hm, %p
  %sq = mul i64 %p, %p
  %small = icmp ult i64 %sq, 131072
  br i1 %small, label %mark, label %next
mark:
  %m = phi i64 [ %sq, %prime ], [ %m1, %mark_back ]
  %pm = getelementptr inbounds [131072 x i8], ptr @flags, i64 0, i64 %m
  store i8 1, ptr %pm
  %m1 = add i64 %m, %p
  %mmore = icmp ult i64 %m1, 131072
  br i1 %mmore, label %mark_back, label %next
mark_back:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 5, i32 0, i64 %m1, i64 %p, ptr %pm)
  br label %mark
next:
  %is_prime = phi i1 [ false, %scan ], [ true, %prime ], [ true, %mark ]
  %h1 = phi i64 [ %h, %scan ], [ %hp, %prime ], [ %hp, %mark ]
  %inc = zext i1 %is_prime to i64
  %count1 = add i64 %count, %inc
  %p1 = add i64 %p, 1
  %pmore = icmp ult i64 %p1, 131072
  br i1 %pmore, label %scan, label %round_end
round_end:
  %hout = phi i64 [ %h1, %next ]
  %rd1 = add i64 %rd, 1
  %rmore = icmp ult i64 %rd1, %rounds
  br i1 %rmore, label %round, label %done
done:
  call void @print_u64(i64 %count1)
  call i32 @putchar(i32 32)
  call void @print_u64(i64 %hout)
  call i32 @putchar(i32 10)
  %t = trunc i64 %hout to i32
  %st = and i32 %t, 127
  ret i32 %st
}
