; expect: 3:1: error: initializer of '@low': constant ptrtoint (ptr @x to i32) cannot have type 'i32'
@x = global i32 0
@low = global i32 ptrtoint (ptr @x to i32)
