; expect: 2:9: error: unsupported linkage 'appending'
@list = appending global [1 x i32] [i32 1]
