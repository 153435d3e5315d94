//! Targets, options and compiling functions.
#[derive(Debug, thiserror::Error)]
pub enum CompileError { #[error("{0}")] Other(String) }
pub struct Options;
impl Options { pub fn new(_t: Option<&str>, _o: &str, _v: u8) -> Result<Options, String> { Ok(Options) } }
