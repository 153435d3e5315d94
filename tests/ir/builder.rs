//! The builder API: modules built in memory verify, print to text that parses back and that
//! llc-19 accepts; the verifier catches what built modules can get wrong.

use crate::support;

use patchmap::ir::builder::{int, null, ModuleBuilder};
use patchmap::ir::{self, BlockId, CallConv, Inst, InstId, IntPred, Module, Operand, Type, Value};

fn looped() -> Module {
    let mut mb = ModuleBuilder::new("built.ll");
    let ext = mb.declare("ext", Type::Void, &[Type::PTR], false);
    let mut f = mb.function("count", Type::I64, &[Type::I64]);
    let (entry, head, exit) = (f.block("entry"), f.block("head"), f.block("exit"));
    f.switch_to(entry);
    let slot = f.alloca(Type::I64, Some(8));
    f.call(ext, &[Operand::new(Type::PTR, slot.clone())]);
    f.br(head);
    f.switch_to(head);
    let i = f.phi(Type::I64);
    let next = f.add(i.clone(), int(1));
    f.add_incoming(&i, int(0), entry);
    f.add_incoming(&i, next.clone(), head);
    f.stackmap(
        7,
        0,
        &[Operand::new(Type::I64, i.clone()), Operand::new(Type::PTR, slot), Operand::new(Type::I32, int(-5))],
    );
    let done = f.icmp(IntPred::Sge, next.clone(), f.param(0));
    f.cond_br(done, exit, head);
    f.switch_to(exit);
    let r = f.patchpoint(CallConv::AnyReg, Type::I64, 8, 16, null(), &[Operand::new(Type::I64, next)], &[]);
    f.ret(r);
    f.finish();
    mb.finish()
}

#[test]
fn built_module_verifies_prints_and_parses_back() {
    let m = looped();
    ir::verify(&m).unwrap();
    let text = m.to_string();
    let again = ir::parse("printed.ll", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    ir::verify(&again).unwrap();
    // Printing the parsed module again is a fixed point.
    assert_eq!(again.to_string(), text);
    if let Some(llc) = support::tool("llc-19") {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("built.ll");
        std::fs::write(&path, &text).unwrap();
        let (code, _, stderr) = support::run(
            std::process::Command::new(llc)
                .args(["-O2", "-mtriple=x86_64-unknown-linux-gnu", "-filetype=null"])
                .arg(&path),
        );
        assert_eq!(code, 0, "llc-19 rejects:\n{stderr}\n{text}");
    }
}

fn count_fn(m: &mut Module) -> &mut ir::Function {
    let id = m.function_by_name("count").unwrap();
    &mut m.functions[id.0 as usize]
}

/// A mistake made on a built module, and the verifier's message for it.
type Mistake = (&'static str, Box<dyn Fn(&mut Module)>);

#[test]
fn verifier_catches_built_mistakes() {
    let cases: Vec<Mistake> = vec![
        (
            "use of instruction #99 which does not exist in 'add'",
            Box::new(|m| {
                let f = count_fn(m);
                let id = f.insts.iter().position(|d| matches!(d.kind, Inst::Binary { .. })).unwrap();
                if let Inst::Binary { rhs, .. } = &mut f.insts[id].kind {
                    *rhs = Value::Inst(InstId(99));
                }
            }),
        ),
        (
            "use of parameter #3, but '@count' has 1 parameters in 'icmp'",
            Box::new(|m| {
                let f = count_fn(m);
                let id = f.insts.iter().position(|d| matches!(d.kind, Inst::ICmp { .. })).unwrap();
                if let Inst::ICmp { rhs, .. } = &mut f.insts[id].kind {
                    *rhs = Value::Param(3);
                }
            }),
        ),
        (
            "'br' refers to block #9 which does not exist",
            Box::new(|m| {
                let f = count_fn(m);
                let id = f.insts.iter().position(|d| matches!(d.kind, Inst::Br { .. })).unwrap();
                f.insts[id].kind = Inst::Br { dest: BlockId(9) };
            }),
        ),
        (
            "block '%exit' does not end with a terminator (last is 'call')",
            Box::new(|m| {
                let f = count_fn(m);
                f.blocks[2].insts.pop();
            }),
        ),
        (
            "'phi' has no entry for predecessor '%entry'",
            Box::new(|m| {
                let f = count_fn(m);
                let id = f.insts.iter().position(|d| matches!(d.kind, Inst::Phi { .. })).unwrap();
                if let Inst::Phi { incoming } = &mut f.insts[id].kind {
                    incoming.remove(0);
                }
            }),
        ),
        (
            "'br' condition must be i1, found i64",
            Box::new(|m| {
                let f = count_fn(m);
                let id = f.insts.iter().position(|d| matches!(d.kind, Inst::CondBr { .. })).unwrap();
                if let Inst::CondBr { cond, .. } = &mut f.insts[id].kind {
                    *cond = Value::Param(0);
                }
            }),
        ),
    ];
    for (want, mutate) in cases {
        let mut m = looped();
        mutate(&mut m);
        let err = ir::verify(&m).expect_err(want);
        assert_eq!(err.to_string(), format!("built.ll:0:0: error: {want}"));
    }
}

#[test]
fn unreachable_blocks_are_allowed() {
    let m = ir::parse(
        "t.ll",
        "define i64 @f(i64 %a) {\nentry:\n  ret i64 %a\ndead:\n  %x = add i64 %y, 1\n  br label %more\nmore:\n  %y = add i64 %x, 1\n  br label %dead\n}\n",
    )
    .unwrap();
    ir::verify(&m).unwrap();
}

/// Struct types, byval/sret parameters and extractvalue/insertvalue built in memory verify, print
/// and parse back.
#[test]
fn built_aggregates_verify_and_parse_back() {
    let mut mb = ModuleBuilder::new("agg.ll");
    let pair = mb.struct_type("pair", false, Some(vec![Type::I64, Type::Double]));
    let mut f = mb.function("swap", Type::Void, &[pair.clone(), Type::PTR]);
    f.set_param_abi(1, ir::ParamAbi::StructRet(pair.clone()));
    let entry = f.block("entry");
    f.switch_to(entry);
    let a = f.extract_value(Operand::new(pair.clone(), f.param(0)), &[0]);
    let b = f.extract_value(Operand::new(pair.clone(), f.param(0)), &[1]);
    let ty = Type::structure(vec![Type::Double, Type::I64]);
    let undef = Value::Const(ir::Const::Undef);
    let r0 = f.insert_value(ty.clone(), undef, Operand::new(Type::Double, b), &[0]);
    let r1 = f.insert_value(ty.clone(), r0, Operand::new(Type::I64, a), &[1]);
    f.store(Operand::new(ty, r1), f.param(1));
    f.ret_void();
    f.finish();
    let m = mb.finish();
    ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    let text = m.to_string();
    assert!(text.contains("%pair = type { i64, double }"), "{text}");
    assert!(text.contains("define void @swap(%pair %0, ptr sret(%pair) %1)"), "{text}");
    let again = ir::parse("agg.ll", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    ir::verify(&again).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.to_string(), text);
    if let Some(llc) = support::tool("llc-19") {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agg.ll");
        std::fs::write(&path, &text).unwrap();
        let (code, _, stderr) = support::run(
            std::process::Command::new(llc)
                .args(["-O2", "-mtriple=aarch64-unknown-linux-gnu", "-filetype=null"])
                .arg(&path),
        );
        assert_eq!(code, 0, "llc-19 rejects:\n{stderr}\n{text}");
    }
}

/// A statepoint built in memory: it verifies, prints as llc-19 reads it, and compiles to a record of
/// LLVM's layout (three constants, the deopt value, one pair).
#[test]
fn built_statepoints_verify_print_and_compile() {
    let gc_ptr = Type::Ptr(1);
    let mut mb = ModuleBuilder::new("gc.ll");
    let alloc = mb.declare("gc_alloc", gc_ptr.clone(), &[Type::I64], false);
    let mut f = mb.function("cons", gc_ptr.clone(), &[Type::I64, gc_ptr.clone()]);
    f.set_gc("statepoint-example");
    let entry = f.block("entry");
    f.switch_to(entry);
    let token = f.statepoint(
        7,
        0,
        alloc,
        &[Operand::new(Type::I64, int(2))],
        &[Operand::new(Type::I64, f.param(0))],
        &[Operand::new(gc_ptr.clone(), f.param(1))],
    );
    let cell = f.gc_result(token.clone(), gc_ptr.clone());
    let next = f.gc_relocate(token, 0, 0, gc_ptr.clone());
    let field = f.gep(Type::I8, cell.clone(), &[Operand::new(Type::I64, int(8))]);
    f.store(Operand::new(gc_ptr.clone(), next), field);
    f.ret(cell);
    f.finish();
    let m = mb.finish();
    ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    let text = m.to_string();
    assert!(
        text.contains("define ptr addrspace(1) @cons(i64 %0, ptr addrspace(1) %1) gc \"statepoint-example\""),
        "{text}"
    );
    assert!(
        text.contains(
            "ptr elementtype(ptr addrspace(1) (i64)) @gc_alloc, i32 1, i32 0, i64 2, i32 0, i32 0) [ \"deopt\"(i64 %0), \
             \"gc-live\"(ptr addrspace(1) %1) ]"
        ),
        "{text}"
    );
    let again = ir::parse("gc.ll", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again.to_string(), text);
    let options = patchmap::compile::Options::new(Some("x86_64"), "speed", 3).unwrap();
    let object = patchmap::emit::object::compile(&m, &options).unwrap_or_else(|e| panic!("{e}"));
    let mut dump = Vec::new();
    patchmap::stackmap::object_file::dump(&object, false, &mut dump).unwrap();
    let dump = String::from_utf8(dump).unwrap();
    assert!(dump.contains("Record ID: 7") && dump.contains("6 locations:"), "{dump}");
    assert!(dump.contains("#3: Constant 1, size: 8"), "one deopt value: {dump}");
    if let Some(llc) = support::tool("llc-19") {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gc.ll");
        std::fs::write(&path, &text).unwrap();
        let (code, _, stderr) =
            support::run(std::process::Command::new(llc).args(["-O2", "-filetype=null"]).arg(&path));
        assert_eq!(code, 0, "llc-19 rejects:\n{stderr}\n{text}");
    }
}

/// A patch point's intrinsic is named by its result's mangling: a `double` result calls
/// `llvm.experimental.patchpoint.f64`, which verifies.
#[test]
fn built_patchpoint_with_a_double_result_verifies() {
    let mut mb = ModuleBuilder::new("pp.ll");
    let mut f = mb.function("f", Type::Double, &[]);
    let entry = f.block("entry");
    f.switch_to(entry);
    let r = f.patchpoint(CallConv::C, Type::Double, 3, 16, null(), &[], &[]);
    f.ret(r);
    f.finish();
    let m = mb.finish();
    ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    assert!(m.to_string().contains("@llvm.experimental.patchpoint.f64("), "{m}");
}
