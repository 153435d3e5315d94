//! The tokenizer for LLVM IR text: turns source bytes into [`Token`]s that borrow from the source.
//!
//! The lexer is pulled one token at a time by the parser and is cheap to clone, which is how the
//! parser looks ahead. It tracks line and column so every token carries its [`Span`]; comments
//! (`; ...`) and whitespace are skipped. Names keep their raw text (quotes stripped, escapes kept):
//! the parser unescapes the few quoted names that need it.

use super::{IrError, Span};

/// A token kind with the text it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    /// The end of the source; the lexer keeps returning it.
    Eof,
    /// `%name`, `%"quoted"` or `%7`: the name without `%` and quotes.
    Local(&'a str),
    /// `@name`, `@"quoted"` or `@7`.
    Global(&'a str),
    /// `name:`, `7:` or `"quoted":` starting a block.
    Label(&'a str),
    /// A bare word: keywords, types, opcodes, attributes.
    Word(&'a str),
    /// A decimal integer, possibly negative.
    Int(&'a str),
    /// A decimal floating-point literal such as `1.5` or `-2.0e3`.
    Float(&'a str),
    /// A hexadecimal literal `0x...` (including forms like `0xK...` that the parser rejects).
    Hex(&'a str),
    /// `"..."` contents, escapes not yet processed.
    Str(&'a str),
    /// `c"..."` contents, escapes not yet processed.
    CStr(&'a str),
    /// `!name` or `!7` (metadata names and references).
    Meta(&'a str),
    /// `#7`, an attribute group reference.
    AttrGroup(&'a str),
    /// `$name`, a comdat name.
    Comdat(&'a str),
    /// `...`
    Ellipsis,
    /// One of `= , ( ) [ ] { } < > * !` and `|`.
    Punct(u8),
}

impl Tok<'_> {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Eof => "end of file".to_string(),
            Tok::Local(n) => format!("'%{n}'"),
            Tok::Global(n) => format!("'@{n}'"),
            Tok::Label(n) => format!("label '{n}:'"),
            Tok::Word(w) | Tok::Int(w) | Tok::Float(w) | Tok::Hex(w) => format!("'{w}'"),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::CStr(s) => format!("string c\"{s}\""),
            Tok::Meta(m) => format!("'!{m}'"),
            Tok::AttrGroup(g) => format!("'#{g}'"),
            Tok::Comdat(c) => format!("'${c}'"),
            Tok::Ellipsis => "'...'".to_string(),
            Tok::Punct(c) => format!("'{}'", *c as char),
        }
    }
}

/// A token, where it starts, and its byte offset in the source.
#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    /// What was read.
    pub tok: Tok<'a>,
    /// The line and column of its first byte.
    pub span: Span,
    /// The byte offset of its first byte in the source.
    pub offset: usize,
}

/// The tokenizer state; `Clone` gives cheap lookahead.
#[derive(Clone)]
pub struct Lexer<'a> {
    src: &'a str,
    file: &'a str,
    pos: usize,
    line: u32,
    line_start: usize,
}

/// Which bytes continue a name, by byte: a table lookup where names are most of the text.
const NAME_CHARS: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_');
        c += 1;
    }
    table
};

/// The bytes [`Lexer::skip_body`] stops at: line ends, strings, comments and braces.
const BODY_SKIP_STOPS: [bool; 256] = {
    let mut table = [false; 256];
    table[b'\n' as usize] = true;
    table[b'"' as usize] = true;
    table[b';' as usize] = true;
    table[b'{' as usize] = true;
    table[b'}' as usize] = true;
    table
};

fn is_name_char(c: u8) -> bool {
    NAME_CHARS[c as usize]
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`; `file` names it in error messages.
    pub fn new(file: &'a str, src: &'a str) -> Lexer<'a> {
        Lexer { src, file, pos: 0, line: 1, line_start: 0 }
    }

    /// The whole source text, which [`Token::offset`]s index.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// The byte offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The line of the next unread byte, from 1.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// Skips the rest of a function body whose `{` was the last token: everything up to and including
    /// the matching `}`, minding strings and comments, without making tokens. The pre-scan, which only
    /// wants top-level names, uses it to pass over bodies at byte speed.
    pub fn skip_body(&mut self) {
        let b = self.src.as_bytes();
        let mut depth = 0usize;
        let mut i = self.pos;
        while i < b.len() {
            // Most bytes matter to none of the cases below: pass them in a tight loop.
            while i < b.len() && !BODY_SKIP_STOPS[b[i] as usize] {
                i += 1;
            }
            let Some(&c) = b.get(i) else { break };
            match c {
                b'\n' => {
                    self.line += 1;
                    self.line_start = i + 1;
                }
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                        i += 1;
                    }
                    // Past the closing quote, which would otherwise open another string.
                    if b.get(i) == Some(&b'"') {
                        i += 1;
                    }
                    continue;
                }
                b';' => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'{' => depth += 1,
                b'}' if depth == 0 => {
                    self.pos = i + 1;
                    return;
                }
                b'}' => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        self.pos = b.len();
    }

    fn span_at(&self, pos: usize) -> Span {
        Span::new(self.line, (pos - self.line_start + 1) as u32)
    }

    fn error(&self, pos: usize, message: impl Into<String>) -> IrError {
        IrError::new(self.file, self.span_at(pos), message)
    }

    fn skip_trivia(&mut self) {
        let b = self.src.as_bytes();
        while self.pos < b.len() {
            match b[self.pos] {
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.pos;
                }
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b';' => {
                    while self.pos < b.len() && b[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    /// The contents of a `"..."` starting at `start` (the opening quote); strings do not span lines.
    fn quoted(&mut self, start: usize) -> Result<&'a str, IrError> {
        let b = self.src.as_bytes();
        let mut i = start + 1;
        while i < b.len() && b[i] != b'"' {
            if b[i] == b'\n' {
                return Err(self.error(start, "unterminated string constant"));
            }
            i += 1;
        }
        if i >= b.len() {
            return Err(self.error(start, "unterminated string constant"));
        }
        self.pos = i + 1;
        Ok(&self.src[start + 1..i])
    }

    fn name_run(&self, from: usize) -> usize {
        let b = self.src.as_bytes();
        let mut i = from;
        while i < b.len() && is_name_char(b[i]) {
            i += 1;
        }
        i
    }

    /// A `%`/`@`/`!`/`#`/`$` prefixed name starting after the sigil at `start`.
    fn sigil_name(&mut self, start: usize, what: &str) -> Result<&'a str, IrError> {
        let b = self.src.as_bytes();
        if b.get(start + 1) == Some(&b'"') {
            return self.quoted(start + 1);
        }
        let end = self.name_run(start + 1);
        if end == start + 1 {
            return Err(self.error(start, format!("expected a name after '{what}'")));
        }
        self.pos = end;
        Ok(&self.src[start + 1..end])
    }

    /// The next token.
    pub fn next_token(&mut self) -> Result<Token<'a>, IrError> {
        self.skip_trivia();
        let start = self.pos;
        let span = self.span_at(start);
        let b = self.src.as_bytes();
        let tok = if start >= b.len() {
            Tok::Eof
        } else {
            let c = b[start];
            match c {
                // Plain names, a third of all tokens, are read here; `sigil_name` takes quoted ones
                // and the error (a quote or nothing after the sigil: no name character).
                b'%' | b'@' => {
                    let end = self.name_run(start + 1);
                    let name = if end > start + 1 {
                        self.pos = end;
                        &self.src[start + 1..end]
                    } else {
                        self.sigil_name(start, if c == b'%' { "%" } else { "@" })?
                    };
                    if c == b'%' {
                        Tok::Local(name)
                    } else {
                        Tok::Global(name)
                    }
                }
                b'$' => Tok::Comdat(self.sigil_name(start, "$")?),
                b'#' => {
                    let end = self.name_run(start + 1);
                    if end == start + 1 {
                        return Err(self.error(start, "expected an attribute group number after '#'"));
                    }
                    self.pos = end;
                    Tok::AttrGroup(&self.src[start + 1..end])
                }
                b'!' => {
                    let end = self.name_run(start + 1);
                    if end == start + 1 {
                        self.pos = start + 1;
                        Tok::Punct(b'!')
                    } else {
                        self.pos = end;
                        Tok::Meta(&self.src[start + 1..end])
                    }
                }
                b'"' => {
                    let s = self.quoted(start)?;
                    if b.get(self.pos) == Some(&b':') {
                        self.pos += 1;
                        Tok::Label(s)
                    } else {
                        Tok::Str(s)
                    }
                }
                b'.' if self.src[start..].starts_with("...") => {
                    self.pos = start + 3;
                    Tok::Ellipsis
                }
                b'=' | b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b'*' | b'|' => {
                    self.pos = start + 1;
                    Tok::Punct(c)
                }
                b'0'..=b'9' | b'-' | b'+' => self.number(start)?,
                _ if c.is_ascii_alphabetic() || c == b'_' || c == b'.' => {
                    if c == b'c' && b.get(start + 1) == Some(&b'"') {
                        Tok::CStr(self.quoted(start + 1)?)
                    } else {
                        let end = self.name_run(start);
                        self.pos = end;
                        if b.get(end) == Some(&b':') {
                            self.pos = end + 1;
                            Tok::Label(&self.src[start..end])
                        } else {
                            Tok::Word(&self.src[start..end])
                        }
                    }
                }
                _ => {
                    let ch = self.src[start..].chars().next().unwrap_or('?');
                    return Err(self.error(start, format!("unexpected character '{}'", ch.escape_default())));
                }
            }
        };
        Ok(Token { tok, span, offset: start })
    }

    /// Integers, decimal floats, hex literals and numeric labels (`7:`).
    fn number(&mut self, start: usize) -> Result<Tok<'a>, IrError> {
        let b = self.src.as_bytes();
        let mut i = start;
        if b[i] == b'-' || b[i] == b'+' {
            i += 1;
        }
        if b.get(i) == Some(&b'0') && b.get(i + 1) == Some(&b'x') && i == start {
            let end = self.name_run(start);
            self.pos = end;
            return Ok(Tok::Hex(&self.src[start..end]));
        }
        let digits = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == digits {
            // `-foo:` style labels are legal LLVM but outside the subset.
            return Err(self.error(start, format!("unexpected character '{}'", b[start] as char)));
        }
        if b.get(i) == Some(&b'.') && !self.src[i..].starts_with("...") {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if matches!(b.get(i), Some(b'e' | b'E')) {
                let mut j = i + 1;
                if matches!(b.get(j), Some(b'-' | b'+')) {
                    j += 1;
                }
                if b.get(j).is_some_and(|c| c.is_ascii_digit()) {
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    i = j;
                }
            }
            self.pos = i;
            return Ok(Tok::Float(&self.src[start..i]));
        }
        if digits == start && b.get(i) == Some(&b':') {
            self.pos = i + 1;
            return Ok(Tok::Label(&self.src[start..i]));
        }
        if i < b.len() && is_name_char(b[i]) && b[i] != b'.' && b[i] != b'-' {
            // `12abc`: a label-like name; only meaningful before ':'.
            let end = self.name_run(i);
            if b.get(end) == Some(&b':') && digits == start {
                self.pos = end + 1;
                return Ok(Tok::Label(&self.src[start..end]));
            }
            return Err(self.error(start, format!("malformed number '{}'", &self.src[start..end])));
        }
        self.pos = i;
        Ok(Tok::Int(&self.src[start..i]))
    }
}
