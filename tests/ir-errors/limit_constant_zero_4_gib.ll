; expect: 3:1: error: constant '@g' of type '[4294967296 x i8]' is larger than the limit for stored contents, 268435456 bytes (only a zero-initialised 'global' is not stored)
; 4 GiB of zeros: a constant is stored in the object (.rodata), not left to .bss.
@g = constant [4294967296 x i8] zeroinitializer
