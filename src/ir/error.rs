//! Positioned IR errors: every rejection reads `file:line:col: error: what is wrong`.

use std::fmt;

/// A 1-based line and column in the IR text. `Span::default()` (0:0) marks IR built in memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

impl Span {
    pub fn new(line: u32, col: u32) -> Span {
        Span { line, col }
    }
}

/// An error in IR text or in a module built in memory.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: error: {message}", span.line, span.col)]
pub struct IrError {
    pub file: String,
    pub span: Span,
    pub message: String,
}

impl IrError {
    pub fn new(file: &str, span: Span, message: impl Into<String>) -> IrError {
        IrError { file: file.to_string(), span, message: message.into() }
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}
