//! In-process JIT code.
use crate::{compile::Options, ir::Module};
pub struct JitCode;
impl JitCode {
    pub fn compile(_m: &Module, _o: &Options) -> Result<JitCode, crate::compile::CompileError> { todo!() }
    pub fn call_i64(&self, _name: &str, _args: &[i64]) -> Result<i64, crate::compile::CompileError> { todo!() }
}
