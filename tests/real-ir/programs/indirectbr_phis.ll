; Computed goto (issue 27, item 3): `blockaddress` values stored in a table, compared, and taken
; by `indirectbr` into blocks with phis; a label's address is a number, not a code address.
@.fmt = private unnamed_addr constant [13 x i8] c"%d %d %d %d\0A\00"
@targets = internal constant [3 x ptr] [ptr blockaddress(@pick, %ten), ptr blockaddress(@pick, %twenty), ptr blockaddress(@pick, %thirty)]

declare i32 @printf(ptr, ...)

define internal i32 @pick(i32 %i, i32 %bias) noinline {
entry:
  %slot = getelementptr inbounds [3 x ptr], ptr @targets, i32 0, i32 %i
  %where = load ptr, ptr %slot
  %extra = add i32 %bias, 1
  indirectbr ptr %where, [label %ten, label %twenty, label %thirty]
ten:
  br label %done
twenty:
  br label %done
thirty:
  %is_twenty = icmp eq ptr %where, blockaddress(@pick, %twenty)
  %t = select i1 %is_twenty, i32 -1, i32 30
  br label %done
done:
  %r = phi i32 [ 10, %ten ], [ 20, %twenty ], [ %t, %thirty ]
  %s = add i32 %r, %extra
  ret i32 %s
}

define internal i32 @same(i32 %i) noinline {
entry:
  %a = select i1 true, ptr blockaddress(@same, %one), ptr blockaddress(@same, %two)
  %slot = getelementptr inbounds [3 x ptr], ptr @targets, i32 0, i32 %i
  %b = load ptr, ptr %slot
  %eq = icmp eq ptr %b, blockaddress(@pick, %twenty)
  %ne = icmp ne ptr %a, null
  %both = and i1 %eq, %ne
  br i1 %both, label %one, label %two
one:
  ret i32 1
two:
  ret i32 0
}

define i32 @main() {
  %a = call i32 @pick(i32 0, i32 0)
  %b = call i32 @pick(i32 1, i32 1)
  %c = call i32 @pick(i32 2, i32 2)
  %d0 = call i32 @same(i32 1)
  %d1 = call i32 @same(i32 2)
  %d = add i32 %d0, %d1
  %p = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %a, i32 %b, i32 %c, i32 %d)
  ret i32 0
}
