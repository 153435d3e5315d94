; expect: 2:1: error: global '@g' of type '[300000000 x i8]' is larger than the limit for stored contents, 268435456 bytes (zeros in a named section other than .bss are stored)
@g = global [300000000 x i8] zeroinitializer, section ".mydata"
@b = global [300000000 x i8] zeroinitializer, section ".bss.big"
