//! TODO
use super::{IrError, Module};
pub fn parse(_file: &str, _text: &str) -> Result<Module, IrError> { todo!() }
pub fn parse_file(_path: &std::path::Path) -> Result<Module, IrError> { todo!() }
