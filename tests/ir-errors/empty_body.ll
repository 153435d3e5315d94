; expect: 3:1: error: function '@f' has no blocks
define void @f() {
}
