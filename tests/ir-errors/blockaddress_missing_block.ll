; expect: 6:11: error: returned value of 'ret': '@f' has no block '%gone'
define ptr @f() {
entry:
  br label %next
next:
  ret ptr blockaddress(@f, %gone)
}
