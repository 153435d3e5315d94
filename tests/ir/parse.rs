//! Parsing of the supported subset: what each construct becomes in the model.

use patchmap::ir::{self, BlockId, CallConv, Const, Init, Inst, InstId, Linkage, TailKind, Type, Value};

fn parse(text: &str) -> ir::Module {
    ir::parse("t.ll", text).unwrap_or_else(|e| panic!("{e}"))
}

const LOOP: &str = r#"
; a counting loop with a forward phi reference
source_filename = "loop.c"
target datalayout = "e-m:e-i64:64-n32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@counter = internal global i64 0, align 8
@table = private unnamed_addr constant [3 x i32] [i32 1, i32 -2, i32 3]
@msg = constant [4 x i8] c"hi\0A\00"
@grid = global [2 x [2 x i8]] [[2 x i8] [i8 1, i8 2], [2 x i8] zeroinitializer]
@ext = external global i32
@f = global float 0x3FF8000000000000
@d = dso_local global double -2.0e3

declare void @llvm.experimental.stackmap(i64, i32, ...)
declare i32 @printf(ptr noundef, ...) #1

define dso_local i64 @sum(i64 noundef %n) #0 {
entry:
  br label %loop

loop:                                             ; preds = %loop, %entry
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc2, %loop ]
  %acc2 = add nsw i64 %acc, %i
  %next = add nuw nsw i64 %i, 1
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 0, i64 %i, ptr @counter)
  %done = icmp sge i64 %next, %n
  br i1 %done, label %exit, label %loop, !prof !0

exit:
  %r = call i32 (ptr, ...) @printf(ptr @msg, i64 %acc2)
  ret i64 %acc2
}

attributes #0 = { noinline nounwind "frame-pointer"="all" memory(argmem: readwrite) }
!0 = !{!"branch_weights", i32 1, i32 1000}
!llvm.module.flags = !{!1}
!1 = !{i32 7, !"uwtable", i32 2}
"#;

#[test]
fn loop_module() {
    let m = parse(LOOP);
    assert_eq!(m.source_filename.as_deref(), Some("loop.c"));
    assert_eq!(m.triple.as_deref(), Some("x86_64-unknown-linux-gnu"));
    assert_eq!(m.globals.len(), 7);
    assert_eq!(m.globals[0].linkage, Linkage::Internal);
    assert_eq!(m.globals[0].align, Some(8));
    assert_eq!(
        m.globals[1].init,
        Some(Init::Array(
            vec![Init::Scalar(Const::Int(1)), Init::Scalar(Const::Int(-2)), Init::Scalar(Const::Int(3)),]
        ))
    );
    assert_eq!(m.globals[2].init, Some(Init::Bytes(b"hi\n\0".to_vec())));
    assert!(m.globals[2].constant);
    assert_eq!(m.globals[4].init, None);
    assert_eq!(m.globals[5].init, Some(Init::Scalar(Const::Float(1.5))));
    assert_eq!(m.globals[6].init, Some(Init::Scalar(Const::Float(-2000.0))));
    let printf = &m.functions[1];
    assert!(printf.varargs && printf.is_declaration());
    let f = &m.functions[2];
    assert_eq!(f.blocks.len(), 3);
    assert_eq!(f.blocks[1].name, "loop");
    let phi = f.inst(f.blocks[1].insts[0]);
    let Inst::Phi { incoming } = &phi.kind else { panic!() };
    assert_eq!(incoming[0], (Value::Const(Const::Int(0)), BlockId(0)));
    // %next is defined after its use in the phi.
    let next = f.insts.iter().position(|i| i.name.as_deref() == Some("next")).unwrap();
    assert_eq!(incoming[1], (Value::Inst(InstId(next as u32)), BlockId(1)));
    let Inst::CondBr { if_true, if_false, .. } = &f.inst(*f.blocks[1].insts.last().unwrap()).kind else { panic!() };
    assert_eq!((*if_true, *if_false), (BlockId(2), BlockId(1)));
}

#[test]
fn numbered_values_and_blocks() {
    let m = parse(
        "define i32 @f(i32, i32 %x) {\n  %2 = add i32 %0, %x\n  br label %3\n3:\n  %4 = mul i32 %2, 2\n  ret i32 %4\n}\n",
    );
    let f = &m.functions[0];
    assert_eq!(f.params[0].name.as_deref(), Some("0"));
    assert_eq!(f.blocks[0].name, "1");
    assert_eq!(f.blocks[1].name, "3");
    assert_eq!(f.insts[0].kind, Inst::Binary { op: ir::BinOp::Add, lhs: Value::Param(0), rhs: Value::Param(1) });
}

#[test]
fn bodies_after_headers_with_braces() {
    // The pre-scan takes a header's first `{` for its body and records where that "body" ends; the
    // top-level pass skips the real bodies, and each must still be read whole.
    let m = parse(
        "define { i64, i64 } @pair(i64 %a) {\nentry:\n  %p = insertvalue { i64, i64 } undef, i64 %a, 0\n  \
         %q = insertvalue { i64, i64 } %p, i64 %a, 1\n  ret { i64, i64 } %q\n}\n\
         @g = global { i32 } { i32 7 }\n\
         define i64 @after(i64 %x) {\nentry:\n  %y = add i64 %x, 1 ; } in a comment\n  ret i64 %y\n}\n",
    );
    let names = |f: &ir::Function| {
        f.insts.iter().map(|i| i.name.as_deref().unwrap_or_default().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(m.functions.len(), 2);
    assert_eq!(names(&m.functions[0]), ["p", "q", ""]);
    assert_eq!(m.functions[1].name, "after");
    assert_eq!(names(&m.functions[1]), ["y", ""]);
    assert_eq!(m.globals.len(), 1);
}

#[test]
fn implicit_numbering_after_terminator() {
    // The unlabeled entry block is %0, so the unnamed call result is %1.
    let m = parse(
        "declare i64 @g()\ndefine i64 @f() {\n  call i64 @g()\n  ret i64 %1\n  %3 = add i64 1, 2\n  ret i64 %3\n}\n",
    );
    let f = &m.functions[1];
    assert_eq!(f.blocks[0].name, "0");
    assert_eq!(f.insts[0].name.as_deref(), Some("1"));
    assert_eq!(f.blocks.len(), 2);
    assert_eq!(f.blocks[1].name, "2");
}

#[test]
fn intrinsics_and_constants() {
    let m = parse(
        r#"declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
define i64 @f(i64 %a, i64 %b) {
  %r = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 2, i32 15, ptr inttoptr (i64 1234 to ptr), i32 2, i64 %a, i64 %b, i8 255, i1 true, ptr null, i64 undef, i32 poison)
  ret i64 %r
}"#,
    );
    let f = &m.functions[1];
    let Inst::Call { cc, callee, sig, args, tail, .. } = &f.insts[0].kind else { panic!() };
    assert_eq!(*cc, CallConv::AnyReg);
    assert_eq!(*callee, Value::Func(ir::FuncId(0)));
    assert!(sig.varargs && sig.params.len() == 4 && sig.ret == Type::I64);
    assert_eq!(*tail, TailKind::None);
    assert_eq!(args[2].value, Value::Const(Const::IntToPtr(1234)));
    assert_eq!(args[6].value, Value::Const(Const::Int(-1)));
    assert_eq!(args[7].value, Value::Const(Const::Int(-1)));
    assert_eq!(args[8].value, Value::Const(Const::Zero));
    assert_eq!(args[9].value, Value::Const(Const::Undef));
    assert_eq!(args[10].value, Value::Const(Const::Poison));
    assert_eq!(f.insts[0].operand_spans.len(), 12);
}

#[test]
fn every_instruction_form() {
    let m = parse(
        r#"
declare i64 @g(i64)
define double @all(i64 %a, i32 %b, ptr %p, double %d, float %f, i8 %c) {
  %1 = sdiv exact i64 %a, 3
  %2 = fadd fast double %d, 1.0
  %3 = fneg nnan double %2
  %4 = fcmp ninf olt double %3, 0x7FF0000000000000
  %5 = fcmp true double %d, %d
  %6 = select i1 %4, double %d, double %3
  %7 = zext nneg i32 %b to i64
  %8 = trunc nuw nsw i64 %a to i16
  %9 = sitofp i64 %a to double
  %10 = fpext float %f to double
  %11 = fptrunc double %d to float
  %12 = ptrtoint ptr %p to i64
  %13 = inttoptr i64 %12 to ptr
  %14 = bitcast i64 %a to double
  %15 = alloca [4 x i32], align 16
  %16 = alloca i8, i64 %a
  %17 = load volatile i64, ptr %p, align 8, !tbaa !2
  store i64 %17, ptr %15, align 4
  store volatile float %11, ptr %16
  %18 = getelementptr inbounds nuw [4 x i32], ptr %15, i64 0, i64 %a
  %19 = icmp eq ptr %18, null
  %20 = tail call i64 @g(i64 %1) nounwind
  %21 = musttail call i64 @g(i64 %20)
  %fp = load ptr, ptr %p
  %22 = call i64 %fp(i64 signext 1)
  switch i8 %c, label %out [
    i8 -1, label %la
    i8 255, label %lb
  ]
la:
  unreachable
lb:
  br label %out
out:
  ret double %6
}
"#,
    );
    let f = &m.functions[1];
    assert_eq!(f.blocks.len(), 4);
    let sw = f.inst(*f.blocks[0].insts.last().unwrap());
    let Inst::Switch { cases, default, .. } = &sw.kind else { panic!() };
    assert_eq!(*default, BlockId(3));
    assert_eq!(cases, &vec![(-1, BlockId(1)), (-1, BlockId(2))]);
}

const AGGREGATES: &str = r#"
%struct.node = type { i32, ptr, [2 x %struct.leaf] }
%struct.leaf = type { i8, double }
%struct.packed = type <{ i8, i64 }>
%struct.hidden = type opaque
%"struct.odd name" = type {}

@root = global %struct.node { i32 1, ptr getelementptr inbounds (%struct.node, ptr @root, i32 0, i32 2, i64 1), [2 x %struct.leaf] [%struct.leaf { i8 2, double 5.000000e-01 }, %struct.leaf zeroinitializer] }
@table = constant [2 x ptr] [ptr @f, ptr @root]
@pk = global %struct.packed <{ i8 1, i64 2 }>
@diff = global i64 sub (i64 ptrtoint (ptr getelementptr ([2 x ptr], ptr @table, i64 0, i64 1) to i64), i64 ptrtoint (ptr @table to i64))

define { i64, double } @f([2 x i64] %a, ptr %out, ptr byval(%struct.node) %in) {
entry:
  %x = extractvalue [2 x i64] %a, 1
  %p = getelementptr inbounds nuw %struct.node, ptr %in, i64 0, i32 2, i64 1, i32 1
  %d = load double, ptr %p
  %l = load %struct.leaf, ptr getelementptr (%struct.node, ptr @root, i32 0, i32 2, i64 1)
  call void @g(ptr sret(%struct.leaf) %out, %struct.leaf %l)
  %r0 = insertvalue { i64, double } undef, i64 %x, 0
  %r1 = insertvalue { i64, double } %r0, double %d, 1
  ret { i64, double } %r1
}

define void @g(ptr sret(%struct.leaf) %out, %struct.leaf %l) {
  store %struct.leaf %l, ptr %out
  ret void
}
"#;

#[test]
fn aggregate_types_layouts_and_constants() {
    let m = parse(AGGREGATES);
    let names: Vec<_> = m.types.iter().map(|t| t.name.clone().unwrap()).collect();
    assert_eq!(names, ["struct.node", "struct.leaf", "struct.packed", "struct.hidden", "struct.odd name"]);
    let node = &m.globals[0].ty;
    // { i32, ptr, [2 x { i8, double }] }: 0, 8, 16; each leaf 16 bytes.
    assert_eq!((node.alloc_size(), node.align()), (48, 8));
    let Type::Struct(s) = node else { panic!("{node}") };
    assert_eq!(s.offsets(), [0, 8, 16]);
    let packed = &m.globals[2].ty;
    assert_eq!((packed.alloc_size(), packed.align()), (9, 1));
    assert!(m.types[3].is_opaque() && !Type::Struct(m.types[3].clone()).is_sized());
    // The GEP constant expression folds to @root + 16 + 16 + 0.
    let Some(Init::Struct(fields)) = &m.globals[0].init else { panic!() };
    assert_eq!(fields[1], Init::Scalar(Const::Address(ir::Symbol::Global(ir::GlobalId(0)), 32)));
    assert_eq!(m.globals[3].init, Some(Init::Scalar(Const::Int(8))));
    let f = &m.functions[0];
    assert_eq!(m.functions[1].params[0].abi, ir::ParamAbi::StructRet(Type::Struct(m.types[1].clone())));
    assert_eq!(f.params[1].abi, ir::ParamAbi::Plain);
    assert!(matches!(f.params[2].abi, ir::ParamAbi::ByVal(_)));
    assert!(matches!(&f.insts[0].kind, Inst::ExtractValue { indices, .. } if *indices == [1]));
    assert_eq!(f.insts[2].ty, Type::Double);
}

#[test]
fn aggregates_print_and_parse_back() {
    let mut m = parse(AGGREGATES);
    ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    let text = m.to_string();
    assert!(text.contains("%struct.node = type { i32, ptr, [2 x %struct.leaf] }"), "{text}");
    assert!(text.contains("%\"struct.odd name\" = type {}"), "{text}");
    assert!(text.contains("ptr %out, ptr byval(%struct.node) %in"), "{text}");
    assert!(text.contains("call void @g(ptr sret(%struct.leaf) %out, %struct.leaf %l)"), "{text}");
    let mut again = ir::parse("t.ll", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    m.clear_spans();
    again.clear_spans();
    assert_eq!(m, again);
}

#[test]
fn statepoints_print_and_parse_back() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/gc/program.ll")).unwrap();
    let mut m = parse(&text);
    ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    let printed = m.to_string();
    assert!(
        printed.contains("define ptr addrspace(1) @cons(i64 %v, ptr addrspace(1) %next) gc \"statepoint-example\""),
        "{printed}"
    );
    assert!(printed.contains("ptr elementtype(ptr addrspace(1) (i64, i64)) @gc_alloc"), "{printed}");
    assert!(printed.contains("[ \"deopt\"(i64 %v), \"gc-live\"(ptr addrspace(1) %next) ]"), "{printed}");
    assert!(
        printed.contains("call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)"),
        "{printed}"
    );
    assert!(printed.contains("load i64, ptr addrspace(1) %pv"), "{printed}");
    let mut again = ir::parse("t.ll", &printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    m.clear_spans();
    again.clear_spans();
    assert_eq!(m, again);
}

#[test]
fn real_ir_forms_print_and_parse_back() {
    // Issue 27: relative references, blockaddress and indirectbr, inrange, constructors, freeze
    // of an aggregate, llvm.load.relative and the va_list intrinsics.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real-ir/programs");
    let extra = r#"
@table = private constant [2 x i32] [i32 trunc (i64 sub (i64 ptrtoint (ptr @a to i64), i64 ptrtoint (ptr @table to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr getelementptr (i8, ptr @a, i64 4) to i64), i64 ptrtoint (ptr getelementptr (i8, ptr @table, i64 4) to i64)) to i32)]
@a = global [2 x i32] zeroinitializer
@wide = constant i64 sub (i64 ptrtoint (ptr @a to i64), i64 ptrtoint (ptr @wide to i64))
@offsets = constant [2 x i32] [i32 trunc (i64 sub (i64 ptrtoint (ptr blockaddress(@sum, %next) to i64), i64 ptrtoint (ptr blockaddress(@sum, %next) to i64)) to i32), i32 0]
@offset64 = constant i64 sub (i64 ptrtoint (ptr blockaddress(@sum, %next) to i64), i64 ptrtoint (ptr blockaddress(@sum, %last) to i64))
declare ptr @llvm.load.relative.i64(ptr, i64)
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_copy.p0(ptr, ptr)
declare void @llvm.va_end.p0(ptr)
define ptr @entry(i64 %i) {
  %p = call ptr @llvm.load.relative.i64(ptr @table, i64 %i)
  ret ptr %p
}
define i32 @sum(i32 %n, ...) {
  %ap = alloca [32 x i8]
  %copy = alloca [32 x i8]
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_copy.p0(ptr %copy, ptr %ap)
  call void @llvm.va_end.p0(ptr %copy)
  call void @llvm.va_end.p0(ptr %ap)
  br label %next
next:
  br label %last
last:
  ret i32 %n
}
"#;
    for name in ["indirectbr_phis", "inrange_vtable", "static_constructors", "freeze_aggregate", "extra"] {
        let text = match name {
            "extra" => extra.to_string(),
            _ => std::fs::read_to_string(format!("{dir}/{name}.ll")).unwrap(),
        };
        let mut m = parse(&text);
        ir::verify(&m).unwrap_or_else(|e| panic!("{name}: {e}"));
        let printed = m.to_string();
        let mut again = ir::parse("t.ll", &printed).unwrap_or_else(|e| panic!("{name}: {e}\n{printed}"));
        m.clear_spans();
        again.clear_spans();
        assert_eq!(m, again, "{name}:\n{printed}");
        match name {
            "indirectbr_phis" => {
                assert!(
                    printed.contains("indirectbr ptr %where, [label %ten, label %twenty, label %thirty]"),
                    "{printed}"
                );
                assert!(printed.contains("ptr blockaddress(@pick, %twenty)"), "{printed}");
                let numbers = m.block_addresses();
                assert_eq!(numbers.len(), 5, "three of @pick, two of @same: {numbers:?}");
            }
            "extra" => {
                assert!(
                    printed.contains(
                        "i32 trunc (i64 sub (i64 ptrtoint (ptr @a to i64), i64 ptrtoint (ptr @table to i64)) to i32)"
                    ),
                    "{printed}"
                );
                assert!(
                    printed.contains("i64 sub (i64 ptrtoint (ptr @a to i64), i64 ptrtoint (ptr @wide to i64))"),
                    "{printed}"
                );
                let label = "i64 sub (i64 ptrtoint (ptr blockaddress(@sum, %next) to i64), i64 ptrtoint (ptr blockaddress(@sum, %last) to i64))";
                assert!(printed.contains(label), "{printed}");
            }
            "static_constructors" => {
                use ir::{StaticFunction, StaticPhase};
                let list = m.static_functions().unwrap();
                let names = |phase| -> Vec<&str> {
                    StaticFunction::run_order(&list, phase).iter().map(|f| m.function(*f).name.as_str()).collect()
                };
                assert_eq!(names(StaticPhase::Constructor), ["c101", "c300", "c300b", "cdefault"]);
                assert_eq!(names(StaticPhase::Destructor), ["ddefault", "d250", "d150"]);
                let sections: Vec<String> = list.iter().map(StaticFunction::elf_section).collect();
                assert_eq!(sections[..2], [".init_array.300".to_string(), ".init_array".to_string()]);
            }
            _ => {}
        }
    }
}

#[test]
fn extensions_are_kept_printed_and_parsed_back() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/extension-abi/caller.ll")).unwrap();
    let mut m = parse(&text);
    ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    let f = m.function(m.function_by_name("widen_s8").unwrap());
    assert_eq!(f.params[0].ext, ir::Extension::Sign);
    let f = m.function(m.function_by_name("sum16").unwrap());
    assert_eq!((f.ret_ext, f.params[0].ext), (ir::Extension::Zero, ir::Extension::None));
    let printed = m.to_string();
    for line in [
        "declare i64 @stacked(i64, i64, i64, i64, i64, i64, i64, i64, i8 signext, i16 zeroext)",
        "declare signext i12 @sum12(i12, i12)",
        "call i32 @widen_s8_site(i8 signext %a2)",
        "call i32 %f(i8 signext %a2)",
        "call zeroext i16 @sum16(i16 %b, i16 %b)",
    ] {
        assert!(printed.contains(line), "{line}\n{printed}");
    }
    let mut again = ir::parse("t.ll", &printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    m.clear_spans();
    again.clear_spans();
    assert_eq!(m, again);
}

const HALVES: &str = r#"
@h = global { i8, half, [3 x half] } { i8 1, half 0xH3C00, [3 x half] [half 1.5, half 0xH7C00, half -0.0] }
@d = global half 65504.0
define half @f(half %a, i16 %b) {
  %c = bitcast i16 %b to half
  %s = fadd half %a, %c
  %w = fpext half %s to double
  %n = fptrunc double %w to half
  %k = fcmp olt half %n, 0xH0001
  %r = select i1 %k, half %n, half 2.0
  ret half %r
}
"#;

#[test]
fn half_lays_out_in_two_bytes_and_prints_back() {
    let mut m = parse(HALVES);
    ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    let h = &m.globals[0].ty;
    // { i8, half, [3 x half] }: 0, 2, 4; 10 bytes, aligned to 2.
    assert_eq!((h.alloc_size(), h.align()), (10, 2));
    let Type::Struct(s) = h else { panic!("{h}") };
    assert_eq!(s.offsets(), [0, 2, 4]);
    assert_eq!(m.globals[1].init, Some(Init::Scalar(Const::Float(65504.0))));
    let text = m.to_string();
    for printed in [
        "half 0xH3C00",
        "half 0xH3E00",
        "half 0xH7C00",
        "half 0xH8000",
        "half 0xH7BFF",
        "half %n, 0xH0001",
        "half 0xH4000",
    ] {
        assert!(text.contains(printed), "{printed} in {text}");
    }
    let mut again = ir::parse("t.ll", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    m.clear_spans();
    again.clear_spans();
    assert_eq!(m, again);
}

/// `llvm.assume`'s operand bundles ("align", "nonnull", ..., two of one tag too) are read and
/// dropped; on any other call an unknown tag is refused at its position. `_mm_pause()`'s
/// `llvm.x86.sse2.pause` compiles to nothing.
#[test]
fn assume_bundles_are_dropped_and_pause_is_a_hint() {
    let text = r#"declare void @llvm.assume(i1)
declare void @llvm.x86.sse2.pause()
declare void @g(ptr)
define void @f(ptr %p) {
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 8), "nonnull"(ptr %p), "align"(ptr %p, i64 16), "cold"() ]
  call void @llvm.x86.sse2.pause()
  ret void
}"#;
    let m = parse(text);
    let Inst::Call { bundles, .. } = &m.functions[3].insts[0].kind else { panic!() };
    assert!(bundles.is_empty());
    let options = patchmap::compile::Options::new(Some("x86_64"), "speed", 1).unwrap();
    patchmap::emit::object::compile(&m, &options).unwrap_or_else(|e| panic!("{e}"));
    let elsewhere = text.replace("@llvm.x86.sse2.pause()\n  ret", "@g(ptr %p) [ \"align\"(ptr %p, i64 8) ]\n  ret");
    let err = ir::parse("t.ll", &elsewhere).unwrap_err().to_string();
    assert!(err.starts_with("t.ll:6:26: error: unsupported operand bundle 'align'"), "{err}");
}

/// LLVM 21 (rustc 1.95's) declares `llvm.lifetime.start/end` without the size: a hint either way,
/// accepted beside LLVM 19's form; other shapes are still refused.
#[test]
fn lifetime_markers_of_llvm_19_and_21_are_accepted() {
    for (declaration, call) in [("i64, ptr", "i64 8, ptr %a"), ("ptr", "ptr %a")] {
        let text = format!(
            "declare void @llvm.lifetime.start.p0({declaration})\ndeclare void @llvm.lifetime.end.p0({declaration})\n\
             define i64 @f() {{\n  %a = alloca i64\n  call void @llvm.lifetime.start.p0({call})\n  store i64 5, ptr %a\n  \
             %v = load i64, ptr %a\n  call void @llvm.lifetime.end.p0({call})\n  ret i64 %v\n}}\n"
        );
        let module = patchmap::ir::parse("lifetime.ll", &text).unwrap();
        patchmap::ir::verify(&module).unwrap_or_else(|e| panic!("({declaration}): {e}"));
        let options = patchmap::compile::Options::new(Some("x86_64"), "speed", 1).unwrap();
        patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("({declaration}): {e}"));
    }
    let text = "declare void @llvm.lifetime.start.p0(i32, ptr)\n";
    let module = patchmap::ir::parse("lifetime.ll", text).unwrap();
    let error = patchmap::ir::verify(&module).unwrap_err().to_string();
    assert!(error.contains("must be declared as 'void (i64, ptr)'"), "{error}");
}
