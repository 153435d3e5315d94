; expect: 4:32: error: unsupported constant expression: the difference of the addresses of '@a' and '@rel' (a relative reference)
@a = global i32 0
@b = global i32 0
@rel = constant i32 trunc (i64 sub (i64 ptrtoint (ptr @a to i64), i64 ptrtoint (ptr @rel to i64)) to i32)
