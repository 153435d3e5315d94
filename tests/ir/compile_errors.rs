//! Errors found while lowering a function (after the verifier accepted the module) are positioned
//! errors, and leave nothing behind: the functions compiled after them, in the same module or the
//! next one on the same threads, compile as if the failed one had never been seen (issue 14: the
//! next function used to panic inside Cranelift with `remove_constant_phis: entry block unknown`).

use patchmap::compile::Options;
use patchmap::ir;

/// `count` small functions with branches and phis (what the leaked builder state broke).
fn good_functions(count: usize) -> String {
    (0..count)
        .map(|k| {
            format!(
                "define i64 @good{k}(i64 %a) {{\nentry:\n  %c = icmp slt i64 %a, {k}\n  br i1 %c, label %t, label %e\n\
                 t:\n  br label %e\ne:\n  %r = phi i64 [ %a, %entry ], [ {k}, %t ]\n  ret i64 %r\n}}\n\n"
            )
        })
        .collect()
}

fn compile(text: &str, triple: &str) -> Result<Vec<u8>, String> {
    let module = ir::parse("in.ll", text).map_err(|e| e.to_string())?;
    let options = Options::new(Some(triple), "speed", 1).map_err(|e| e.to_string())?;
    patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())
}

fn fails_then_recovers(bad: &str, triple: &str, message: &str) {
    let good = good_functions(16);
    // The failing function first and last, among others compiled by the same workers.
    for text in [format!("{bad}\n{good}"), format!("{good}\n{bad}")] {
        let error = compile(&text, triple).expect_err("the invalid function compiled");
        assert!(error.contains(message), "unexpected error: {error}");
        assert!(error.starts_with("in.ll:"), "error without a position: {error}");
        // The same threads go on with a clean slate.
        for _ in 0..4 {
            compile(&good, triple).expect("a valid module after a failed one");
        }
    }
}

#[test]
fn variadic_double_through_a_pointer_on_x86_64_then_more_functions() {
    let bad = "@fmt = private constant [4 x i8] c\"%f\\0A\\00\"\n\
               define i32 @bad(ptr %printf, double %x) {\nentry:\n  br label %next\nnext:\n  \
               %r = call i32 (ptr, ...) %printf(ptr @fmt, double %x)\n  ret i32 %r\n}\n";
    fails_then_recovers(bad, "x86_64-unknown-linux-gnu", "floating-point arguments to a variadic function");
}

#[test]
fn aarch64_shadow_not_a_multiple_of_4_then_more_functions() {
    let bad = "declare void @llvm.experimental.stackmap(i64, i32, ...)\n\
               define i64 @bad(i64 %a) {\nentry:\n  br label %next\nnext:\n  \
               call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 6, i64 %a)\n  ret i64 %a\n}\n";
    fails_then_recovers(bad, "aarch64-unknown-linux-gnu", "not a multiple of 4");
}
