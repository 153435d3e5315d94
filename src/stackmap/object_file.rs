//! Finding, dumping and converting the stack map section of object files.
use std::io::Write;
/// Placeholder until the format lands.
pub fn dump(_bytes: &[u8], _symbols: bool, _out: &mut dyn Write) -> Result<(), String> { Err("unimplemented".into()) }
/// Placeholder until the format lands.
pub fn convert(_bytes: &[u8], _version: u8) -> Result<Vec<u8>, String> { Err("unimplemented".into()) }
