; expect: 3:1: error: redefinition of '@g'
@g = global i64 0
@g = global i64 1
