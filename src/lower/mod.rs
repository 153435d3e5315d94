//! Lowering of the IR onto Cranelift IR.
