; expect: 3:21: error: unsupported constant expression: 'trunc' of the difference of the addresses of '@a' and '@rel' to i16 (relative references are i32 or i64)
@a = global i32 0
@rel = constant i16 trunc (i64 sub (i64 ptrtoint (ptr @a to i64), i64 ptrtoint (ptr @rel to i64)) to i16)
