//! TODO
use super::{IrError, Module};
pub fn verify(_m: &Module) -> Result<(), IrError> { Ok(()) }
