; expect: 3:1: error: redefinition of type '%t'
%t = type { i32 }
%t = type { i64 }
