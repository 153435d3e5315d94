; expect: 2:1: error: alignment 2147483648 of '@g' is larger than the limit, 16777216
@g = global i64 0, align 2147483648
