; expect: 3:1: error: global '@g' of type '[9223372036854775808 x i8]' is larger than the limit, 4294967296 bytes
; 2^63 elements.
@g = global [9223372036854775808 x i8] zeroinitializer
