//! Relocatable objects.
use crate::{compile::Options, ir::Module};
pub fn compile(_m: &Module, _o: &Options) -> Result<Vec<u8>, crate::compile::CompileError> { todo!() }
