; expect: 2:13: error: '@f': unsupported garbage collector "ocaml" (statepoints work with "statepoint-example" or "coreclr")
define void @f() gc "ocaml" {
  ret void
}
