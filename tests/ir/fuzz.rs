//! Mutated IR text never panics the parser, verifier or printer: every input either fails with an
//! error or yields a module that verifies and prints back to text that verifies again.

use proptest::prelude::*;

use patchmap::ir;

/// Valid seeds covering every construct; mutations of them reach deep into the parser.
fn seeds() -> Vec<String> {
    let mut seeds = vec![
        include_str!("../ir-errors/use_does_not_dominate.ll").to_string(),
        include_str!("../ir-errors/switch_duplicate_case.ll").to_string(),
        include_str!("../ir-errors/patchpoint_numargs_too_big.ll").to_string(),
        r#"source_filename = "s.c"
target triple = "x86_64-unknown-linux-gnu"
@g = internal global [2 x [2 x i16]] [[2 x i16] [i16 1, i16 -1], [2 x i16] zeroinitializer], align 4
@s = private constant [3 x i8] c"a\0A\00"
@f = global float 0x3FF8000000000000
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
declare i32 @printf(ptr, ...)
define i64 @loop(i64 %n, ptr %p, double %d) #0 {
entry:
  %a = alloca [4 x i32], align 16
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %c = icmp slt i64 %i, %n
  br i1 %c, label %body, label %exit
body:
  %q = getelementptr inbounds [4 x i32], ptr %a, i64 0, i64 %i
  %t = trunc i64 %i to i32
  store volatile i32 %t, ptr %q, align 4
  %x = fadd fast double %d, 1.5
  %y = fcmp olt double %x, -2.0e3
  %z = select i1 %y, i64 1, i64 2
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %i, ptr %q, double %x)
  %r = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 2, i32 15, ptr inttoptr (i64 1234 to ptr), i32 1, i64 %z)
  %next = add nsw i64 %i, %r
  switch i64 %z, label %head [
    i64 7, label %exit
  ]
exit:
  %v = load i64, ptr %p, align 8, !tbaa !0
  %u = call i32 (ptr, ...) @printf(ptr @s, i64 %v)
  ret i64 %v
}
attributes #0 = { nounwind "frame-pointer"="all" }
!0 = !{!"x", i32 1}
"#
        .to_string(),
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/llc19");
    for name in ["sm_basic.ll", "sm_shadow.ll", "sm_order.ll", "sm_spill.ll"] {
        if let Ok(text) = std::fs::read_to_string(dir.join(name)) {
            seeds.push(text);
        }
    }
    seeds
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, text: &'static str },
    Replace { at: usize, byte: u8 },
    Truncate { at: usize },
}

const FRAGMENTS: &[&str] = &[
    "%",
    "@",
    "!",
    "#0",
    "\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    ",",
    "=",
    ":",
    "...",
    "-",
    "0x",
    "c\"",
    "i64",
    "i128",
    "ptr",
    "void",
    "label",
    "%x",
    "%0",
    "%9",
    "@f",
    "1",
    "-1",
    "18446744073709551616",
    "0.5",
    "0xK",
    "\n",
    " ",
    "phi",
    "br",
    "ret",
    "add",
    "call",
    "undef",
    "null",
    "inttoptr",
    "zeroinitializer",
    "x",
    "[2 x i8]",
    "\\",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..20).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), prop::sample::select(FRAGMENTS)).prop_map(|(at, text)| Mutation::Insert { at, text }),
        (any::<usize>(), 0x20u8..0x7f).prop_map(|(at, byte)| Mutation::Replace { at, byte }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
    ]
}

fn apply(text: &str, mutations: &[Mutation]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in mutations {
        let n = bytes.len().max(1);
        match *m {
            Mutation::Delete { at, len } => {
                let at = at % n;
                let end = (at + len).min(bytes.len());
                if at < end {
                    bytes.drain(at..end);
                }
            }
            Mutation::Insert { at, text } => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, text.bytes());
            }
            Mutation::Replace { at, byte } => {
                if !bytes.is_empty() {
                    let at = at % bytes.len();
                    bytes[at] = byte;
                }
            }
            Mutation::Truncate { at } => bytes.truncate(at % n),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn exercise(text: &str) {
    let Ok(module) = ir::parse("fuzz.ll", text) else { return };
    let errors = ir::verify_all(&module);
    if errors.is_empty() {
        let printed = module.to_string();
        let again = ir::parse("printed.ll", &printed)
            .unwrap_or_else(|e| panic!("{e}\n--- input:\n{text}\n--- printed:\n{printed}"));
        if let Err(e) = ir::verify(&again) {
            panic!("{e}\n--- input:\n{text}\n--- printed:\n{printed}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_text_never_panics(seed in any::<prop::sample::Index>(), mutations in prop::collection::vec(mutation(), 1..6)) {
        let seeds = seeds();
        let seed = &seeds[seed.index(seeds.len())];
        exercise(&apply(seed, &mutations));
    }

    #[test]
    fn random_text_never_panics(text in "[ -~\n]{0,200}") {
        exercise(&text);
    }
}
