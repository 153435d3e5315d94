; expect: 2:19: error: 'source_filename' contains a NUL byte
source_filename = "a\00b"
