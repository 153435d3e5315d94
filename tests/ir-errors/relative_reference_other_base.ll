; expect: 4:1: error: unsupported relative reference in '@rel': relative to '@b' (only references relative to the global that holds them are supported)
@a = global i32 0
@b = global i32 0
@rel = constant i32 trunc (i64 sub (i64 ptrtoint (ptr @a to i64), i64 ptrtoint (ptr @b to i64)) to i32)
