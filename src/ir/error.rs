//! Positioned IR errors: every rejection reads `file:line:col: error: what is wrong`.

use std::fmt;

/// A 1-based line and column in the IR text. `Span::default()` (0:0) marks IR built in memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// The line, from 1.
    pub line: u32,
    /// The column in bytes, from 1.
    pub col: u32,
}

impl Span {
    /// The position `line:col` (both 1-based).
    pub fn new(line: u32, col: u32) -> Span {
        Span { line, col }
    }
}

/// An error in IR text or in a module built in memory.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: error: {message}", span.line, span.col)]
pub struct IrError {
    /// The file name as given to the parser or builder.
    pub file: String,
    /// Where the problem is; 0:0 for IR built in memory.
    pub span: Span,
    /// What is wrong, without position or `error:` prefix.
    pub message: String,
}

impl IrError {
    /// An error at `file:span` saying `message`.
    pub fn new(file: &str, span: Span, message: impl Into<String>) -> IrError {
        IrError { file: file.to_string(), span, message: message.into() }
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}
