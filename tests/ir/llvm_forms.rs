//! Forms of LLVM's own stack map, patch point and statepoint tests (llvm/test/CodeGen/X86 and
//! AArch64) that llc-19 accepts: what each becomes in the model. Their records are compared with
//! llc-19's in `tests/stackmaps/llvm_forms.rs`.

use crate::support;

use patchmap::ir::{self, Const, Init, PointCall, Type, Value};

fn parse(text: &str) -> ir::Module {
    let module = ir::parse("t.ll", text).unwrap_or_else(|e| panic!("{e}"));
    ir::verify(&module).unwrap_or_else(|e| panic!("{e}"));
    module
}

/// The constants a stack map call records, in order.
fn recorded(module: &ir::Module) -> Vec<Const> {
    let f = module.functions.iter().find(|f| !f.is_declaration()).unwrap();
    let call = f.insts.iter().find_map(|d| PointCall::decode(module, d)).unwrap().unwrap();
    call.live()
        .iter()
        .map(|o| match &o.value {
            Value::Const(c) => c.clone(),
            other => panic!("not a constant: {other:?}"),
        })
        .collect()
}

fn stackmap_of(live: &str) -> String {
    format!(
        "declare void @llvm.experimental.stackmap(i64, i32, ...)\n\
         define void @f() {{\n  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, {live})\n  \
         ret void\n}}\n"
    )
}

#[test]
fn decimal_literals_are_reduced_modulo_their_width_as_llc_19_reads_them() {
    // llc-19 -O0 stores these as 0, 127, 0, 0 and 1 (X86 `i32 4294967296` in LLVM's tests).
    let module =
        parse(&stackmap_of("i32 4294967296, i8 -129, i1 2, i64 18446744073709551616, i64 18446744073709551617"));
    assert_eq!(recorded(&module), [Const::Int(0), Const::Int(127), Const::Int(0), Const::Int(0), Const::Int(1)]);
    let long = format!("i64 {}", "9".repeat(60));
    // 10^60 - 1 modulo 2^64, as a signed 64-bit number.
    let expected = (0..60).fold(0u64, |v, _| v.wrapping_mul(10).wrapping_add(9)) as i64;
    assert_eq!(recorded(&parse(&stackmap_of(&long))), [Const::Int(expected)]);
}

#[test]
fn signed_and_unsigned_hexadecimal_integers_extend_from_their_highest_set_bit() {
    let module =
        parse(&stackmap_of("i32 s0xF, i32 s0x0F, i32 s0x7, i32 u0xFF, i32 u0xFFFFFFFFF, i64 s0x00, i8 u0x1FF"));
    assert_eq!(
        recorded(&module),
        [
            Const::Int(-1),
            Const::Int(-1),
            Const::Int(-1),
            Const::Int(255),
            Const::Int(-1),
            Const::Int(0),
            Const::Int(-1)
        ]
    );
}

#[test]
fn typed_pointer_function_types_and_pointer_casts_read_as_ptr() {
    let module = parse(
        "declare void @f()\n\
         @fp = global i8* bitcast (void ()* @f to i8*)\n\
         define i64 @g(i64 (i64)* %p, void (i8*, ...)* %q, i32 ()** %r, i8 addrspace(1)* %s, i8* (i8*)* %t, i32 (i8*)* (i64)* %u) {\n  \
           %a = bitcast void ()* @f to i8*\n  \
           %v = call i64 %p(i64 1)\n  \
           call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i8* bitcast (void ()* @f to i8*))\n  \
           ret i64 %v\n}\n\
         declare void @llvm.experimental.stackmap(i64, i32, ...)\n",
    );
    let g = module.functions.iter().find(|f| f.name == "g").unwrap();
    let types: Vec<Type> = g.params.iter().map(|p| p.ty.clone()).collect();
    assert_eq!(types, [Type::PTR, Type::PTR, Type::PTR, Type::Ptr(1), Type::PTR, Type::PTR]);
    // Function types nest as deep as aggregates may, and no deeper.
    let nested = |n: usize| format!("define void @f({}i8{} %p) {{\n  ret void\n}}\n", "i8 (".repeat(n), ")*".repeat(n));
    parse(&nested(200));
    let e = ir::parse("t.ll", &nested(300)).unwrap_err().to_string();
    assert!(e.ends_with("error: function types nested more than 256 deep"), "{e}");
    let fp = module.globals.iter().find(|g| g.name == "fp").unwrap();
    assert!(matches!(&fp.init, Some(Init::Scalar(Const::Address(ir::Symbol::Func(_), 0)))), "{:?}", fp.init);
    let call = g.insts.iter().find_map(|d| PointCall::decode(&module, d)).unwrap().unwrap();
    assert!(matches!(call.live()[0].value, Value::Func(_)), "{:?}", call.live());
}

#[test]
fn patch_point_targets_computed_from_constants_are_folded() {
    let module = parse(
        "declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)\n\
         declare void @h()\n\
         define void @f() {\n  \
           %t = inttoptr i64 -559038736 to ptr\n  \
           call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 15, ptr %t, i32 0)\n  \
           %n = inttoptr i32 -1 to ptr\n  \
           %c = bitcast ptr %n to ptr\n  \
           call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 2, i32 15, ptr %c, i32 0)\n  \
           %z = inttoptr i64 0 to ptr\n  \
           call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 3, i32 15, ptr %z, i32 0)\n  \
           %h = bitcast ptr @h to ptr\n  \
           call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 15, ptr %h, i32 0)\n  \
           ret void\n}\n",
    );
    let f = &module.functions[2];
    let targets: Vec<Value> = f
        .insts
        .iter()
        .filter_map(|d| match PointCall::decode(&module, d)? {
            Ok(PointCall::PatchPoint(p)) => Some(p.target.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        targets,
        [
            Value::Const(Const::IntToPtr(-559038736)),
            // inttoptr zero-extends an i32.
            Value::Const(Const::IntToPtr(0xffff_ffff)),
            Value::Const(Const::IntToPtr(0)),
            Value::Func(ir::FuncId(1)),
        ]
    );
    // A target computed at run time stays an error.
    let text = "declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)\n\
                define void @f(i64 %x) {\n  %t = inttoptr i64 %x to ptr\n  \
                call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 15, ptr %t, i32 0)\n  \
                ret void\n}\n";
    let e = ir::parse("t.ll", text).and_then(|m| ir::verify(&m)).unwrap_err().to_string();
    assert!(e.starts_with("t.ll:4:93: error: patchpoint TARGET must be a constant pointer"), "{e}");
}

#[test]
fn statepoint_operand_counts_may_be_of_any_integer_type() {
    let text = |counts: &str| {
        format!(
            "declare void @f()\n\
             declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)\n\
             define void @g() gc \"statepoint-example\" {{\n  \
               %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 7, i32 0, \
             ptr elementtype(void ()) @f, i32 0, i32 0, {counts})\n  \
               ret void\n}}\n"
        )
    };
    for counts in ["i64 0, i64 0", "i32 0, i32 0", "i8 0, i1 0", "i64 0, i32 0"] {
        let module = parse(&text(counts));
        let call = module.functions[2].insts.iter().find_map(|d| ir::StatepointCall::decode(&module, d));
        assert!(matches!(call, Some(Ok(_))), "{counts}: {call:?}");
    }
    let e = ir::parse("t.ll", &text("i64 0, i64 1")).and_then(|m| ir::verify(&m)).unwrap_err().to_string();
    assert!(e.contains("the number of deopt operands must be 0"), "{e}");
}

const CLOBBERS: &str = "define i64 @clobbered(i64 %a, i64 %b, i64 %c) {\n\
  %s = add i64 %a, %b\n  \
  call void asm sideeffect \"\", \"~{rax},~{rbx},~{rcx},~{rdx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{r12},~{r13},\
~{r14},~{r15},~{dirflag},~{fpsr},~{flags}\"()\n  \
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 0, i64 %s, i64 %c)\n  \
  %r = add i64 %s, %c\n  \
  ret i64 %r\n}\n\
declare void @llvm.experimental.stackmap(i64, i32, ...)\n";

#[test]
fn clobber_only_inline_asm_is_read_printed_and_runs_as_no_code() {
    let module = parse(CLOBBERS);
    let f = &module.functions[0];
    let Some(ir::Inst::ClobberAsm { clobbers, nops: 0, output: None, .. }) =
        f.insts.iter().map(|d| &d.kind).nth(1).cloned()
    else {
        panic!("{:?}", f.insts[1])
    };
    let names: Vec<&str> = clobbers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), 17);
    assert_eq!((names[0], names[13], names[16]), ("rax", "r15", "flags"));
    // Each name's position is its own, inside the constraint string.
    assert_eq!((clobbers[1].span.line, clobbers[1].span.col), (3, 40));
    let printed = module.to_string();
    assert!(printed.contains("call void asm sideeffect \"\", \"~{rax},~{rbx},"), "{printed}");
    let (mut again, mut module) = (parse(&printed), module);
    again.clear_spans();
    module.clear_spans();
    assert_eq!(again, module);
    // Compiled and interpreted, the function computes the same (it is x86-64's register names).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clobbers.ll");
    std::fs::write(&path, CLOBBERS).unwrap();
    if support::x86_64_host("clobber-only inline asm in the JIT") {
        let args = ["--entry", "clobbered", path.to_str().unwrap(), "40", "2", "100"].map(std::ffi::OsStr::new);
        for (mode, (code, out, err)) in support::run_both_ways(&args) {
            assert_eq!((code, out.trim()), (0, "142"), "{mode}: {err}");
        }
    }
}

#[test]
fn inline_asm_clobbers_are_registers_of_the_target() {
    let module = parse(CLOBBERS);
    // x86-64's names are not AArch64's: the first one is refused, where it is written.
    let options = patchmap::compile::Options::new(Some("aarch64-unknown-linux-gnu"), "speed", 3).unwrap();
    let e = patchmap::emit::object::compile(&module, &options).unwrap_err().to_string();
    assert_eq!(e, "t.ll:3:33: error: inline asm clobbers 'rax', which is not a register of AArch64");
    let aarch64 = CLOBBERS.replace("~{rax},~{rbx}", "~{x19},~{d8},~{nzcv},~{memory}").replace(
        ",~{rcx},~{rdx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{r12},~{r13},~{r14},~{r15},~{dirflag},~{fpsr},~{flags}",
        "",
    );
    assert!(patchmap::emit::object::compile(&parse(&aarch64), &options).is_ok());
    let options = patchmap::compile::Options::new(Some("x86_64-unknown-linux-gnu"), "speed", 3).unwrap();
    assert!(patchmap::emit::object::compile(&module, &options).is_ok());
    // Parts of registers, as LLVM's X86 tests write them (`~{ax},~{bx},~{bp},~{si}`), clobber the
    // registers; AArch64's `w` and `s`/`q` names likewise.
    let parts = CLOBBERS.replace("~{rax},~{rbx}", "~{ax},~{bl},~{ebp},~{sil},~{r8d},~{r9w},~{r10b}");
    assert!(patchmap::emit::object::compile(&parse(&parts), &options).is_ok());
    let aarch64_parts = aarch64.replace("~{x19},~{d8}", "~{w19},~{s8},~{q9},~{h10},~{b11}");
    let a64 = patchmap::compile::Options::new(Some("aarch64-unknown-linux-gnu"), "speed", 3).unwrap();
    assert!(patchmap::emit::object::compile(&parse(&aarch64_parts), &a64).is_ok());
    let e = patchmap::emit::object::compile(&parse(&CLOBBERS.replace("~{r15}", "~{r16}")), &options)
        .unwrap_err()
        .to_string();
    assert!(e.ends_with("error: inline asm clobbers 'r16', which is not a register of x86-64"), "{e}");
}

/// Register outputs and inputs of empty templates, as LLVM's X86 `stackmap-liveness.ll` and
/// `anyregcc.ll` write them to pin values in registers.
const PINNED: &str = "define i64 @pinned(i64 %a) {\n\
  %z = call i64 asm sideeffect \"\", \"={rax}\"() nounwind\n  \
  %v = call <2 x double> asm sideeffect \"\", \"={xmm2}\"() nounwind\n  \
  %w = call <4 x double> asm sideeffect \"\", \"={ymm1}\"() nounwind\n  \
  call void asm sideeffect \"\", \"{r8},{xmm2},{ymm1},~{rbx}\"(i64 %a, <2 x double> %v, <4 x double> %w) nounwind\n  \
  %l = extractelement <2 x double> %v, i32 1\n  \
  %m = extractelement <4 x double> %w, i32 3\n  \
  %lm = fadd double %l, %m\n  \
  %li = fptosi double %lm to i64\n  \
  %s = add i64 %a, %z\n  \
  %r = add i64 %s, %li\n  \
  ret i64 %r\n}\n";

#[test]
fn empty_inline_asm_outputs_are_a_defined_arbitrary_value_and_inputs_are_read_by_no_code() {
    let module = parse(PINNED);
    let kinds: Vec<&ir::Inst> = module.functions[0].insts.iter().map(|d| &d.kind).collect();
    let ir::Inst::ClobberAsm { output: Some(out), inputs, nops: 0, .. } = kinds[1] else { panic!("{:?}", kinds[1]) };
    assert_eq!((out.name.as_str(), inputs.len()), ("xmm2", 0));
    let ir::Inst::ClobberAsm { output: None, inputs, clobbers, .. } = kinds[3] else { panic!("{:?}", kinds[3]) };
    let names: Vec<&str> = inputs.iter().map(|i| i.0.name.as_str()).collect();
    assert_eq!((names, clobbers[0].name.as_str()), (vec!["r8", "xmm2", "ymm1"], "rbx"));
    assert_eq!(inputs[1].1.ty.to_string(), "<2 x double>");
    let printed = module.to_string();
    assert!(printed.contains("call void asm sideeffect \"\", \"{r8},{xmm2},{ymm1},~{rbx}\"(i64 %a, "), "{printed}");
    let (mut again, mut module) = (parse(&printed), module);
    again.clear_spans();
    module.clear_spans();
    assert_eq!(again, module);
    // Compiled (both targets' code, the JIT on this host) and interpreted, the outputs are 0: what the
    // register held is no value a program can depend on, so patchmap fixes one, as `freeze poison`.
    let x86 = patchmap::compile::Options::new(Some("x86_64-unknown-linux-gnu"), "speed", 3).unwrap();
    assert!(patchmap::emit::object::compile(&module, &x86).is_ok());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pinned.ll");
    std::fs::write(&path, PINNED).unwrap();
    if support::x86_64_host("inline asm register outputs in the JIT") {
        let args = ["--entry", "pinned", path.to_str().unwrap(), "40"].map(std::ffi::OsStr::new);
        for (mode, (code, out, err)) in support::run_both_ways(&args) {
            assert_eq!((code, out.trim()), (0, "40"), "{mode}: {err}");
        }
    }
    let aarch64 = PINNED.replace("={rax}", "={x0}").replace("={xmm2}", "={q2}").replace("={ymm1}", "={v1}");
    let aarch64 = aarch64.replace("{r8},{xmm2},{ymm1},~{rbx}", "{x8},{d2},{q1},~{x19}");
    let a64 = patchmap::compile::Options::new(Some("aarch64-unknown-linux-gnu"), "speed", 3).unwrap();
    assert!(patchmap::emit::object::compile(&parse(&aarch64), &a64).is_ok());
    // Names are the target's and of the value's class, refused where they are written.
    let e = patchmap::emit::object::compile(&parse(PINNED), &a64).unwrap_err().to_string();
    assert_eq!(e, "t.ll:2:35: error: inline asm names 'rax', which is not a register of AArch64");
    let wrong = PINNED.replace("={rax}", "={xmm0}");
    let e = patchmap::emit::object::compile(&parse(&wrong), &x86).unwrap_err().to_string();
    assert_eq!(e, "t.ll:2:35: error: inline asm puts a 'i64' in 'xmm0', a register of the wrong class for it");
    // With code in the template, the output would be what that code computed: refused.
    let e = ir::parse("t.ll", &PINNED.replacen("\"\", \"={rax}\"", "\"nop\", \"={rax}\"", 1)).unwrap_err().to_string();
    assert!(e.starts_with("t.ll:2:38: error: unsupported inline asm output with a non-empty template"), "{e}");
}

#[test]
fn vector_getelementptr_is_read_and_printed_with_its_operand_types() {
    let text = "define <2 x ptr> @f(<2 x ptr> %v, ptr %p, <2 x i32> %i) {\n  \
      %a = getelementptr i64, <2 x ptr> %v, i64 1\n  \
      %b = getelementptr inbounds { i32, i64 }, ptr %p, <2 x i32> %i, <2 x i32> <i32 1, i32 1>\n  \
      %c = getelementptr i8, <2 x ptr> %a, <2 x i32> %i\n  \
      ret <2 x ptr> %c\n}\n";
    let module = parse(text);
    ir::verify(&module).unwrap();
    let f = &module.functions[0];
    let vector = Type::Vector(2, Box::new(Type::PTR));
    assert!(f.insts[..3].iter().all(|d| d.ty == vector), "{:?}", f.insts);
    assert!(matches!(f.insts[1].kind, ir::Inst::Gep { vector_base: false, .. }));
    let printed = module.to_string();
    assert!(printed.contains("getelementptr i64, <2 x ptr> %v, i64 1"), "{printed}");
    assert!(printed.contains("getelementptr inbounds { i32, i64 }, ptr %p, <2 x i32> %i"), "{printed}");
    let (mut again, mut module) = (parse(&printed), module);
    again.clear_spans();
    module.clear_spans();
    assert_eq!(again, module);
    // A struct field is the same in every lane (LLVM requires a splat).
    let mixed = text.replace("<i32 1, i32 1>", "<i32 0, i32 1>");
    let e = ir::parse("t.ll", &mixed).and_then(|m| ir::verify(&m)).unwrap_err().to_string();
    assert!(e.contains("must be a constant field number"), "{e}");
}

#[test]
fn i128_constants_keep_all_128_bits() {
    let module =
        parse(&stackmap_of("i128 18446744073709551616, i128 -1, i128 18446744073709551615, i128 u0x1FFFFFFFFFFFFFFFF"));
    let wide = |v: i128| Const::WideInt(Box::new(v));
    assert_eq!(recorded(&module), [wide(1 << 64), Const::Int(-1), wide(u64::MAX.into()), wide((1 << 65) - 1)]);
    let f = module.functions.iter().find(|f| !f.is_declaration()).unwrap();
    let call = f.insts.iter().find_map(|d| PointCall::decode(&module, d)).unwrap().unwrap();
    assert!(call.live().iter().all(|o| o.ty == Type::Int(128)));
    // Literals wrap modulo 2^128 as LLVM's parser takes them; s0x extends its sign bit.
    let module = parse(&stackmap_of(
        "i128 340282366920938463463374607431768211457, i128 s0x8000000000000000, i128 -170141183460469231731687303715884105728",
    ));
    assert_eq!(recorded(&module), [Const::Int(1), Const::Int(i64::MIN), wide(i128::MIN)]);
    // What stays refused is refused where it is written.
    for (text, at, message) in [
        (
            "define void @f(i128 %x) {\n  switch i128 %x, label %d []\nd:\n  ret void\n}\n",
            "2:10",
            "unsupported 'switch' on 'i128'",
        ),
        (
            "define i128 @f() {\n  ret i128 add (i128 1, i128 2)\n}\n",
            "2:12",
            "unsupported constant expression of type 'i128'",
        ),
        ("define void @f(i65 %x) {\n  ret void\n}\n", "1:16", "unsupported type 'i65'"),
    ] {
        let e = ir::parse("t.ll", text).unwrap_err().to_string();
        assert_eq!(e, format!("t.ll:{at}: error: {message}"));
    }
}
