; expect: 3:19: error: struct constant has 1 fields, expected 2 for '%pair'
%pair = type { i32, i64 }
@p = global %pair { i32 1 }
