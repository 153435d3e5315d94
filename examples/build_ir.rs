//! Builds a small module in memory with the builder API (a counting loop that records a stack map
//! on every iteration and calls a patch point, and an `explicitcc` function of the kind a runtime
//! would patch into that region), verifies it and prints it as LLVM IR text.
//!
//! Run: `cargo run --example build_ir`

use patchmap::ir::builder::{int, null, ModuleBuilder};
use patchmap::ir::{self, CallConv, IntPred, Operand, Type};

fn main() -> Result<(), ir::IrError> {
    let mut mb = ModuleBuilder::new("build_ir.ll");
    mb.triple("x86_64-unknown-linux-gnu");

    // i64 @sum_to(i64 %n): sum of 0..n, with a stack map of the loop state per iteration.
    let mut f = mb.function("sum_to", Type::I64, &[Type::I64]);
    f.name_param(0, "n");
    let entry = f.block("entry");
    let head = f.block("loop");
    let exit = f.block("exit");

    f.switch_to(entry);
    let slot = f.alloca(Type::I64, Some(8));
    f.name(&slot, "slot");
    f.br(head);

    f.switch_to(head);
    let i = f.phi(Type::I64);
    let acc = f.phi(Type::I64);
    f.name(&i, "i");
    f.name(&acc, "acc");
    let acc2 = f.add(acc.clone(), i.clone());
    let next = f.add(i.clone(), int(1));
    f.name(&acc2, "acc.next");
    f.name(&next, "i.next");
    f.store(Operand::new(Type::I64, acc2.clone()), slot.clone());
    f.stackmap(1, 0, &[Operand::new(Type::I64, i.clone()), Operand::new(Type::PTR, slot.clone())]);
    let done = f.icmp(IntPred::Sge, next.clone(), f.param(0));
    f.cond_br(done, exit, head);
    f.add_incoming(&i, int(0), entry);
    f.add_incoming(&i, next, head);
    f.add_incoming(&acc, int(0), entry);
    f.add_incoming(&acc, acc2.clone(), head);

    f.switch_to(exit);
    // A 15-byte patchable region that a runtime may later turn into a call.
    let patched =
        f.patchpoint(CallConv::AnyReg, Type::I64, 2, 15, null(), &[Operand::new(Type::I64, acc2.clone())], &[]);
    f.name(&patched, "patched");
    f.ret(patched);
    f.finish();

    // The seed's `explicitcc` example: exchanges rcx and rdx, leaving rax and rbx as they were.
    let mut swap = mb.function("swap", Type::Void, &[Type::I64, Type::I64]);
    swap.set_calling_convention(CallConv::Explicit);
    swap.name_param(0, "a");
    swap.name_param(1, "b");
    swap.set_param_register(0, "rcx");
    swap.set_param_register(1, "rdx");
    swap.set_noclobber(&["rax", "rbx"]);
    let entry = swap.block("entry");
    swap.switch_to(entry);
    let (a, b) = (swap.param(0), swap.param(1));
    swap.return_with_registers(&[(Operand::new(Type::I64, a), "rdx"), (Operand::new(Type::I64, b), "rcx")]);
    swap.ret_void();
    swap.finish();

    let module = mb.finish();
    ir::verify(&module)?;
    print!("{module}");
    Ok(())
}
