; expect: 2:27: error: struct constant does not match the packed type '<{ i8, i32 }>'
@p = global <{ i8, i32 }> { i8 1, i32 2 }
