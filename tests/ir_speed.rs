//! Parsing speed: a generated 10 MB module parses in well under a second in release builds
//! (`cargo test --release --test ir_speed -- --nocapture` prints the rate).

use std::fmt::Write;
use std::time::Instant;

fn generated_module(target_bytes: usize) -> String {
    let mut text = String::with_capacity(target_bytes + 4096);
    text.push_str("declare void @llvm.experimental.stackmap(i64, i32, ...)\n@g = global i64 0\n");
    let mut n = 0;
    while text.len() < target_bytes {
        write!(
            text,
            "define i64 @f{n}(i64 %a, i64 %b, ptr %p) {{\nentry:\n  %s = alloca [4 x i64], align 8\n  br label %loop\n\
loop:\n  %i = phi i64 [ 0, %entry ], [ %next, %loop ]\n  %acc = phi i64 [ %a, %entry ], [ %sum, %loop ]\n\
  %q = getelementptr inbounds [4 x i64], ptr %s, i64 0, i64 %i\n  %v = load i64, ptr %p, align 8\n\
  %sum = add nsw i64 %acc, %v\n  store i64 %sum, ptr %q, align 8\n  %d = sitofp i64 %sum to double\n\
  %e = fmul double %d, 0x3FF8000000000000\n  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 {n}, i32 0, i64 %i, ptr %q, double %e)\n\
  %next = add i64 %i, 1\n  %c = icmp slt i64 %next, %b\n  br i1 %c, label %loop, label %exit\n\
exit:\n  %r = load i64, ptr @g\n  ret i64 %r\n}}\n\n"
        )
        .unwrap();
        n += 1;
    }
    text
}

#[test]
fn ten_megabytes_parse_quickly() {
    let text = generated_module(10 << 20);
    let start = Instant::now();
    let module = patchmap::ir::parse("big.ll", &text).unwrap();
    let parse = start.elapsed();
    let start = Instant::now();
    patchmap::ir::verify(&module).unwrap();
    let verify = start.elapsed();
    let mb = text.len() as f64 / 1e6;
    eprintln!(
        "parsed {mb:.1} MB ({} functions) in {:.0} ms ({:.0} MB/s); verified in {:.0} ms",
        module.functions.len(),
        parse.as_secs_f64() * 1e3,
        mb / parse.as_secs_f64(),
        verify.as_secs_f64() * 1e3
    );
    // Debug builds (the default test profile) are several times slower; the bound is for release.
    let limit = if cfg!(debug_assertions) { 10.0 } else { 1.0 };
    assert!(parse.as_secs_f64() < limit, "parsing took {parse:?}");
}
