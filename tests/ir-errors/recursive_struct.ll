; expect: 3:21: error: recursive type '%list' contains itself
%list = type { i64, %node }
%node = type { i32, %list }
define void @f() {
  %a = alloca %list
  ret void
}
