//! Stack maps: the section format against llc-19's vectors and llvm-readobj-19, and proof at run time
//! that every recorded location holds its value, on both targets.

#[path = "../generator/mod.rs"]
mod generator;
#[path = "../support/mod.rs"]
mod support;

mod call_sizes;
mod checker_llc;
mod clobber_asm;
mod frame_table;
mod frame_table_golden;
mod frameless_leaves;
mod frames;
mod generated;
mod half;
mod int_widths;
mod jit;
mod llc;
mod llvm_forms;
mod llvm_tests;
mod pressure;
mod properties;
mod realigned_frames;
mod reference;
mod runtime;
mod seed_reader;
mod v1_counts;
mod vectors;
mod zero_cost;
