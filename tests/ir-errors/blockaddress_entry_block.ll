; expect: 2:1: error: initializer of '@table': 'blockaddress' of the entry block of '@f'
@table = global [1 x ptr] [ptr blockaddress(@f, %entry)]
define void @f() {
entry:
  ret void
}
