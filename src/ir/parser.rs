//! The parser for the LLVM IR text subset: text in, [`Module`] out, or the first error with its
//! `file:line:col`.
//!
//! One pass over the tokens builds each function directly into the model. Forward references are
//! resolved at the end of each function: a quick pre-scan collects the names of all globals and
//! functions (so `@f` may be used before its definition), block labels get provisional ids that are
//! renumbered into textual order, and values used before their definition get placeholders that
//! are patched once the function has been read. Names are looked up as slices of the source, so
//! reading allocates only for what ends up in the module.
//!
//! What the subset does not implement is rejected with a positioned "unsupported ..." message
//! rather than silently mis-compiled; attributes, metadata and other annotations that do not change
//! meaning are skipped.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use super::lexer::{Lexer, Tok, Token};
use super::{
    BinOp, Block, BlockId, CallConv, CastOp, Const, FloatPred, FuncId, Function, Global, GlobalId, Init, Inst,
    InstData, InstId, IntPred, IrError, Linkage, Module, Operand, Param, Signature, Span, TailKind, Type, Value,
};

/// Parses LLVM IR text. `file_name` is only used in error messages.
///
/// ```
/// let m = patchmap::ir::parse("add.ll", "define i64 @add(i64 %a, i64 %b) {\n  %s = add i64 %a, %b\n  ret i64 %s\n}\n")?;
/// assert_eq!(m.functions[0].name, "add");
/// # Ok::<(), patchmap::ir::IrError>(())
/// ```
pub fn parse(file_name: &str, text: &str) -> Result<Module, IrError> {
    let mut parser = Parser::new(file_name, text)?;
    let top_level = parser.module();
    let bodies = std::mem::take(&mut parser.bodies);
    let mut module = parser.module;
    // Function bodies only need the module's names, which the pre-scan found: they are read after the
    // top level, in parallel when there are many. Errors still come in file order: a body before a
    // top-level error is read (and reported) first.
    let results = match &top_level {
        Ok(()) => crate::workers::map(&bodies, 16, |b| b.read(file_name, &parser.symbols)),
        Err(_) => bodies.iter().map(|b| b.read(file_name, &parser.symbols)).collect(),
    };
    for (body, result) in bodies.iter().zip(results) {
        let (blocks, insts) = result?;
        let function = &mut module.functions[body.function.0 as usize];
        function.blocks = blocks;
        function.insts = insts;
    }
    top_level?;
    Ok(module)
}

/// A function body the top-level pass skipped: where it starts and the function's state after its
/// header (parameters and their names).
struct PendingBody<'a> {
    function: FuncId,
    name: String,
    state: FnState<'a>,
    /// The lexer and current token at the body's `{`.
    lex: Lexer<'a>,
    tok: Token<'a>,
}

impl<'a> PendingBody<'a> {
    fn read(&self, file: &'a str, symbols: &Arc<NameMap<&'a str, Symbol>>) -> PResult<(Vec<Block>, Vec<InstData>)> {
        let mut parser = Parser {
            file,
            lex: self.lex.clone(),
            tok: self.tok,
            symbols: Arc::clone(symbols),
            module: Module::default(),
            bodies: Vec::new(),
        };
        let mut state = self.state.clone();
        parser.body(&mut state, &self.name)?;
        Ok((state.blocks, state.insts))
    }
}

/// Reads and parses a `.ll` file; errors name the path as given.
pub fn parse_file(path: &Path) -> Result<Module, IrError> {
    let name = path.display().to_string();
    let bytes = crate::input::read(path)
        .map_err(|e| IrError::new(&name, Span::default(), format!("cannot read '{name}': {e}")))?;
    match String::from_utf8(bytes) {
        Ok(text) => parse(&name, &text),
        Err(e) => {
            let bytes = e.as_bytes();
            let bad = e.utf8_error().valid_up_to();
            let line = bytes[..bad].iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let line_start = bytes[..bad].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            Err(IrError::new(&name, Span::new(line, (bad - line_start + 1) as u32), "invalid UTF-8 in source text"))
        }
    }
}

/// FxHash: the names hashed here are short and not attacker-chosen in a way that matters for a
/// compiler front end, and SipHash dominates parse time otherwise.
type NameMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// A function-local name as written: `%name` or `%7`. Numbered names that the text leaves
/// implicit (unnamed results, unlabeled blocks) have a key without any source text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Key<'a> {
    Name(&'a str),
    Num(u32),
}

impl<'a> Key<'a> {
    fn of(raw: &'a str) -> Key<'a> {
        if is_numeric(raw) {
            if let Ok(n) = raw.parse() {
                return Key::Num(n);
            }
        }
        Key::Name(raw)
    }
}

impl std::fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Name(n) => f.write_str(n),
            Key::Num(n) => write!(f, "{n}"),
        }
    }
}

/// What a module-level name refers to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Symbol {
    Global(GlobalId),
    Func(FuncId),
}

/// A function-local name.
#[derive(Clone, Copy)]
enum Local {
    Param(u32),
    Inst(InstId),
}

/// Placeholder ids for values used before their definition live above this bit.
const PENDING: u32 = 1 << 31;

/// Per-function parsing state.
#[derive(Default, Clone)]
struct FnState<'a> {
    params: Vec<Param>,
    locals: NameMap<Key<'a>, Local>,
    /// Values used before definition: name, first use, expected type.
    pending: Vec<(Key<'a>, Span, Type)>,
    pending_index: NameMap<Key<'a>, u32>,
    /// Block labels in order of first mention; their provisional ids index `slots`.
    block_slot: NameMap<Key<'a>, u32>,
    /// For each provisional block id: the real block index once defined, the first mention, the name.
    slots: Vec<(Option<u32>, Span, Key<'a>)>,
    next_number: u32,
    blocks: Vec<Block>,
    insts: Vec<InstData>,
    /// Operand positions of the instruction being read.
    spans: Vec<Span>,
}

const INT_FLAGS: &[&str] = &["nuw", "nsw", "exact", "disjoint"];
const FAST_MATH: &[&str] = &["fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"];
const CAST_FLAGS: &[&str] = &["nneg", "nuw", "nsw"];
/// Instruction words the subset reads (call prefixes included).
const SUPPORTED_OPCODES: &[&str] = &[
    "add",
    "sub",
    "mul",
    "sdiv",
    "udiv",
    "srem",
    "urem",
    "and",
    "or",
    "xor",
    "shl",
    "lshr",
    "ashr",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "frem",
    "fneg",
    "icmp",
    "fcmp",
    "select",
    "zext",
    "sext",
    "trunc",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "fpext",
    "fptrunc",
    "bitcast",
    "ptrtoint",
    "inttoptr",
    "alloca",
    "load",
    "store",
    "getelementptr",
    "phi",
    "call",
    "tail",
    "musttail",
    "notail",
    "br",
    "switch",
    "ret",
    "unreachable",
];
/// Instruction words of LLVM the subset rejects by name.
const UNSUPPORTED_OPCODES: &[&str] = &[
    "invoke",
    "landingpad",
    "resume",
    "indirectbr",
    "callbr",
    "extractvalue",
    "insertvalue",
    "extractelement",
    "insertelement",
    "shufflevector",
    "atomicrmw",
    "cmpxchg",
    "fence",
    "va_arg",
    "freeze",
    "addrspacecast",
    "cleanuppad",
    "catchpad",
    "catchswitch",
    "catchret",
    "cleanupret",
];

/// Whether a word starts an instruction, supported or not: attribute lists stop there.
fn is_opcode(word: &str) -> bool {
    SUPPORTED_OPCODES.contains(&word) || UNSUPPORTED_OPCODES.contains(&word)
}
const TOP_LEVEL: &[&str] =
    &["define", "declare", "attributes", "target", "source_filename", "module", "uselistorder", "uselistorder_bb"];
/// Parameter and return attributes that change the calling convention or memory layout.
const UNSUPPORTED_PARAM_ATTRS: &[&str] = &[
    "byval",
    "sret",
    "inalloca",
    "preallocated",
    "byref",
    "elementtype",
    "swifterror",
    "swiftself",
    "swiftasync",
    "nest",
];
/// Parameter and return attributes that are only optimisation hints.
const PARAM_ATTRS: &[&str] = &[
    "noundef",
    "signext",
    "zeroext",
    "inreg",
    "nonnull",
    "nocapture",
    "readonly",
    "readnone",
    "writeonly",
    "noalias",
    "returned",
    "immarg",
    "nofree",
    "allocalign",
    "allocptr",
    "writable",
    "dead_on_unwind",
    "dead_on_return",
];
/// Parameter attributes followed by a parenthesised argument.
const PARAM_ATTRS_WITH_ARG: &[&str] = &[
    "dereferenceable",
    "dereferenceable_or_null",
    "alignstack",
    "nofpclass",
    "range",
    "captures",
    "initializes",
    "align",
];
/// Function-level constructs whose meaning the subset does not implement.
const UNSUPPORTED_FN_PARTS: &[&str] = &["section", "gc", "personality", "prefix", "prologue", "comdat", "partition"];
const UNSUPPORTED_LINKAGE: &[&str] = &[
    "weak",
    "weak_odr",
    "linkonce",
    "linkonce_odr",
    "common",
    "appending",
    "extern_weak",
    "available_externally",
    "dllimport",
    "dllexport",
    "thread_local",
    "ifunc",
    "alias",
];

fn is_numeric(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// Processes `\\` and `\XX` escapes of LLVM strings and quoted names.
fn unescape(raw: &str) -> Cow<'_, [u8]> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw.as_bytes());
    }
    let b = raw.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (b.get(i + 1).and_then(|&c| hex(c)), b.get(i + 2).and_then(|&c| hex(c))) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    Cow::Owned(out)
}

fn name_string(raw: &str) -> String {
    match unescape(raw) {
        Cow::Borrowed(_) => raw.to_string(),
        Cow::Owned(v) => String::from_utf8_lossy(&v).into_owned(),
    }
}

/// Whether a word names a calling convention (other than the ones the subset knows).
fn is_calling_convention(w: &str) -> bool {
    const PREFIXES: &[&str] =
        &["x86_", "arm_", "aarch64_", "amdgpu_", "spir_", "ptx_", "msp430_", "avr_", "riscv_", "m68k_"];
    (w.ends_with("cc") && w != "cc") || PREFIXES.iter().any(|p| w.starts_with(p))
}

/// The integer `text` as an `iN` constant, sign-extended to 64 bits; `None` if it does not fit.
fn int_in_width(text: &str, bits: u8) -> Option<i64> {
    let (neg, digits) = match text.as_bytes()[0] {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.len() > 30 {
        return None;
    }
    let magnitude: i128 = digits.parse().ok()?;
    let v = if neg { -magnitude } else { magnitude };
    let min = -(1i128 << (bits - 1));
    let max = (1i128 << bits) - 1;
    if v < min || v > max {
        return None;
    }
    let shift = 64 - bits as u32;
    Some(((v as i64) << shift) >> shift)
}

/// Deepest nesting of array types: every pass over a type recurses once per level.
const MAX_TYPE_NESTING: usize = 256;

struct Parser<'a> {
    file: &'a str,
    lex: Lexer<'a>,
    tok: Token<'a>,
    symbols: Arc<NameMap<&'a str, Symbol>>,
    module: Module,
    bodies: Vec<PendingBody<'a>>,
}

type PResult<T> = Result<T, IrError>;

impl<'a> Parser<'a> {
    fn new(file: &'a str, text: &'a str) -> PResult<Parser<'a>> {
        let mut lex = Lexer::new(file, text);
        let tok = lex.next_token()?;
        let symbols = Arc::new(prescan(file, text));
        let module = Module { file: file.to_string(), ..Module::default() };
        Ok(Parser { file, lex, tok, symbols, module, bodies: Vec::new() })
    }

    // ---- token plumbing ----

    fn bump(&mut self) -> PResult<Token<'a>> {
        let next = self.lex.next_token()?;
        Ok(std::mem::replace(&mut self.tok, next))
    }

    fn peek(&self) -> PResult<Token<'a>> {
        self.lex.clone().next_token()
    }

    fn err(&self, span: Span, message: impl Into<String>) -> IrError {
        IrError::new(self.file, span, message)
    }

    fn expected(&self, what: &str) -> IrError {
        self.err(self.tok.span, format!("expected {what}, found {}", self.tok.tok.describe()))
    }

    fn is_punct(&self, c: u8) -> bool {
        self.tok.tok == Tok::Punct(c)
    }

    fn is_word(&self, w: &str) -> bool {
        self.tok.tok == Tok::Word(w)
    }

    fn eat_punct(&mut self, c: u8) -> PResult<bool> {
        if self.is_punct(c) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn eat_word(&mut self, w: &str) -> PResult<bool> {
        if self.is_word(w) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn expect_punct(&mut self, c: u8, context: &str) -> PResult<()> {
        if self.eat_punct(c)? {
            Ok(())
        } else {
            Err(self.expected(&format!("'{}'{context}", c as char)))
        }
    }

    fn expect_word(&mut self, w: &str, context: &str) -> PResult<()> {
        if self.eat_word(w)? {
            Ok(())
        } else {
            Err(self.expected(&format!("'{w}'{context}")))
        }
    }

    fn string(&mut self, context: &str) -> PResult<String> {
        match self.tok.tok {
            Tok::Str(s) => {
                self.bump()?;
                Ok(name_string(s))
            }
            _ => Err(self.expected(&format!("a string{context}"))),
        }
    }

    /// A non-negative decimal integer such as an alignment or an array length.
    fn unsigned(&mut self, what: &str) -> PResult<u64> {
        match self.tok.tok {
            Tok::Int(t) if !t.starts_with(['-', '+']) => match t.parse::<u64>() {
                Ok(v) => {
                    self.bump()?;
                    Ok(v)
                }
                Err(_) => Err(self.err(self.tok.span, format!("{what} '{t}' is too large"))),
            },
            _ => Err(self.expected(what)),
        }
    }

    fn alignment(&mut self) -> PResult<u64> {
        let span = self.tok.span;
        let a = self.unsigned("an alignment")?;
        if !a.is_power_of_two() {
            return Err(self.err(span, format!("alignment {a} is not a power of 2")));
        }
        if a > 1 << 32 {
            return Err(self.err(span, format!("alignment {a} is too large")));
        }
        Ok(a)
    }

    /// Skips from an opening bracket to its match, inclusive.
    fn skip_balanced(&mut self) -> PResult<()> {
        let open = self.tok;
        let mut depth = 0usize;
        loop {
            match self.tok.tok {
                Tok::Punct(b'(' | b'[' | b'{' | b'<') => depth += 1,
                Tok::Punct(b')' | b']' | b'}' | b'>') => depth -= 1,
                Tok::Eof => return Err(self.err(open.span, format!("unbalanced {}", open.tok.describe()))),
                _ => {}
            }
            self.bump()?;
            if depth == 0 {
                return Ok(());
            }
        }
    }

    /// Skips one metadata value: `!7`, `!"text"`, `!{...}`, `!DIThing(...)`, `distinct !{...}`.
    fn skip_metadata_value(&mut self) -> PResult<()> {
        self.eat_word("distinct")?;
        match self.tok.tok {
            Tok::Meta(_) => {
                self.bump()?;
                if self.is_punct(b'(') {
                    self.skip_balanced()?;
                }
                Ok(())
            }
            Tok::Punct(b'!') => {
                self.bump()?;
                match self.tok.tok {
                    Tok::Punct(b'{') => self.skip_balanced(),
                    Tok::Str(_) => self.bump().map(|_| ()),
                    _ => Err(self.expected("metadata after '!'")),
                }
            }
            _ => Err(self.expected("a metadata value")),
        }
    }

    /// Skips `, !name !value` attachments after an instruction or global.
    fn skip_attachments(&mut self) -> PResult<()> {
        while self.is_punct(b',') && matches!(self.peek()?.tok, Tok::Meta(_)) {
            self.bump()?;
            self.bump()?;
            self.skip_metadata_value()?;
        }
        Ok(())
    }

    // ---- module level ----

    fn module(&mut self) -> PResult<()> {
        loop {
            match self.tok.tok {
                Tok::Eof => return Ok(()),
                Tok::Word("source_filename") => {
                    self.bump()?;
                    self.expect_punct(b'=', " after 'source_filename'")?;
                    let span = self.tok.span;
                    let name = self.string(" after 'source_filename ='")?;
                    // It names the object's file symbol, and ELF string tables end names with NUL.
                    if name.contains('\0') {
                        return Err(self.err(span, "'source_filename' contains a NUL byte"));
                    }
                    self.module.source_filename = Some(name);
                }
                Tok::Word("target") => {
                    self.bump()?;
                    let which = self.tok;
                    if !(self.eat_word("datalayout")? || self.eat_word("triple")?) {
                        return Err(self.expected("'datalayout' or 'triple' after 'target'"));
                    }
                    self.expect_punct(b'=', "")?;
                    let s = self.string("")?;
                    if which.tok == Tok::Word("triple") {
                        self.module.triple = Some(s);
                    } else {
                        self.module.datalayout = Some(s);
                    }
                }
                Tok::Word("declare") => {
                    self.bump()?;
                    self.function(false)?;
                }
                Tok::Word("define") => {
                    self.bump()?;
                    self.function(true)?;
                }
                Tok::Word("attributes") => {
                    self.bump()?;
                    if !matches!(self.tok.tok, Tok::AttrGroup(_)) {
                        return Err(self.expected("an attribute group '#N'"));
                    }
                    self.bump()?;
                    self.expect_punct(b'=', "")?;
                    if !self.is_punct(b'{') {
                        return Err(self.expected("'{'"));
                    }
                    self.skip_balanced()?;
                }
                Tok::Meta(_) => {
                    self.bump()?;
                    self.expect_punct(b'=', " after a metadata name")?;
                    self.skip_metadata_value()?;
                }
                Tok::Global(name) => self.global_variable(name)?,
                Tok::Word("module") => return Err(self.err(self.tok.span, "unsupported module-level inline asm")),
                Tok::Comdat(_) => return Err(self.err(self.tok.span, "unsupported comdat")),
                _ => return Err(self.expected("a top-level entity")),
            }
        }
    }

    /// Linkage, visibility and similar prefixes of a global or function.
    fn linkage(&mut self) -> PResult<(Linkage, bool)> {
        let mut linkage = Linkage::External;
        let mut explicit_external = false;
        loop {
            match self.tok.tok {
                Tok::Word("internal") => linkage = Linkage::Internal,
                Tok::Word("private") => linkage = Linkage::Private,
                Tok::Word("external") => explicit_external = true,
                Tok::Word(
                    "dso_local"
                    | "dso_preemptable"
                    | "default"
                    | "hidden"
                    | "protected"
                    | "unnamed_addr"
                    | "local_unnamed_addr"
                    | "externally_initialized",
                ) => {}
                Tok::Word(w) if UNSUPPORTED_LINKAGE.contains(&w) => {
                    return Err(self.err(self.tok.span, format!("unsupported linkage '{w}'")));
                }
                Tok::Word("addrspace") => self.address_space()?,
                _ => return Ok((linkage, explicit_external)),
            }
            self.bump()?;
        }
    }

    /// `addrspace(0)` is the default; others are outside the subset. Leaves the `)` current.
    fn address_space(&mut self) -> PResult<()> {
        let span = self.tok.span;
        self.bump()?;
        self.expect_punct(b'(', " after 'addrspace'")?;
        let n = self.unsigned("an address space number")?;
        if n != 0 {
            return Err(self.err(span, format!("unsupported address space {n}")));
        }
        if !self.is_punct(b')') {
            return Err(self.expected("')'"));
        }
        Ok(())
    }

    fn calling_convention(&mut self) -> PResult<CallConv> {
        let span = self.tok.span;
        match self.tok.tok {
            Tok::Word("ccc") => {
                self.bump()?;
                Ok(CallConv::C)
            }
            Tok::Word("anyregcc") => {
                self.bump()?;
                Ok(CallConv::AnyReg)
            }
            Tok::Word("cc") => {
                self.bump()?;
                let n = self.unsigned("a calling convention number after 'cc'")?;
                match n {
                    0 => Ok(CallConv::C),
                    13 => Ok(CallConv::AnyReg),
                    _ => Err(self.err(span, format!("unsupported calling convention 'cc {n}'"))),
                }
            }
            Tok::Word(w) if is_calling_convention(w) => {
                Err(self.err(span, format!("unsupported calling convention '{w}'")))
            }
            _ => Ok(CallConv::C),
        }
    }

    /// Skips parameter or return attributes, rejecting the ones that change the ABI.
    fn param_attributes(&mut self) -> PResult<()> {
        loop {
            match self.tok.tok {
                Tok::Word(w) if PARAM_ATTRS.contains(&w) => {
                    self.bump()?;
                }
                Tok::Word("align") => {
                    self.bump()?;
                    if self.is_punct(b'(') {
                        self.skip_balanced()?;
                    } else {
                        self.alignment()?;
                    }
                }
                Tok::Word(w) if PARAM_ATTRS_WITH_ARG.contains(&w) => {
                    self.bump()?;
                    if self.is_punct(b'(') {
                        self.skip_balanced()?;
                    }
                }
                Tok::Word(w) if UNSUPPORTED_PARAM_ATTRS.contains(&w) => {
                    return Err(self.err(self.tok.span, format!("unsupported parameter attribute '{w}'")));
                }
                Tok::Str(_) => {
                    self.bump()?;
                    if self.eat_punct(b'=')? {
                        self.string("")?;
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// Skips function attributes up to `{` (definitions) or the next top-level entity (declarations).
    fn function_attributes(&mut self) -> PResult<()> {
        loop {
            match self.tok.tok {
                Tok::Word("align") => {
                    self.bump()?;
                    self.alignment()?;
                }
                Tok::Word("addrspace") => {
                    self.address_space()?;
                    self.bump()?;
                }
                Tok::Word(w) if UNSUPPORTED_FN_PARTS.contains(&w) => {
                    return Err(self.err(self.tok.span, format!("unsupported function attribute '{w}'")));
                }
                Tok::Meta(_) => {
                    self.bump()?;
                    self.skip_metadata_value()?;
                }
                _ => {
                    if !self.skip_attribute(|w| !TOP_LEVEL.contains(&w) && !is_opcode(w))? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Skips one attribute we accept without meaning: `#N`, `"key"[="value"]`, or a word that
    /// `is_attribute` admits with its `(...)` arguments. False, consuming nothing, at anything else.
    fn skip_attribute(&mut self, is_attribute: impl Fn(&str) -> bool) -> PResult<bool> {
        match self.tok.tok {
            Tok::AttrGroup(_) => {
                self.bump()?;
            }
            Tok::Str(_) => {
                self.bump()?;
                if self.eat_punct(b'=')? {
                    self.string("")?;
                }
            }
            Tok::Word(w) if is_attribute(w) => {
                self.bump()?;
                if self.is_punct(b'(') {
                    self.skip_balanced()?;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn global_variable(&mut self, raw: &'a str) -> PResult<()> {
        let span = self.tok.span;
        let id = GlobalId(self.module.globals.len() as u32);
        if self.symbols.get(raw) != Some(&Symbol::Global(id)) {
            return Err(self.err(span, format!("redefinition of '@{raw}'")));
        }
        self.bump()?;
        self.expect_punct(b'=', " after a global name")?;
        let (linkage, external) = self.linkage()?;
        let constant = match self.tok.tok {
            Tok::Word("global") => false,
            Tok::Word("constant") => true,
            _ => return Err(self.expected("'global' or 'constant'")),
        };
        self.bump()?;
        let ty_span = self.tok.span;
        let ty = self.ty()?;
        if ty == Type::Void {
            return Err(self.err(ty_span, "a global variable cannot have type 'void'"));
        }
        let init = if external { None } else { Some(self.initializer(&ty)?) };
        let mut align = None;
        while self.is_punct(b',') {
            let next = self.peek()?;
            match next.tok {
                Tok::Word("align") => {
                    self.bump()?;
                    self.bump()?;
                    align = Some(self.alignment()?);
                }
                Tok::Word(w @ ("section" | "partition" | "comdat" | "code_model")) => {
                    return Err(self.err(next.span, format!("unsupported global variable attribute '{w}'")));
                }
                Tok::Meta(_) => self.skip_attachments()?,
                _ => {
                    self.bump()?;
                    return Err(self.expected("'align' or metadata after ','"));
                }
            }
        }
        if let Tok::AttrGroup(_) = self.tok.tok {
            self.bump()?;
        }
        self.module.globals.push(Global { name: name_string(raw), ty, init, constant, linkage, align, span });
        Ok(())
    }

    fn initializer(&mut self, ty: &Type) -> PResult<Init> {
        let span = self.tok.span;
        match (self.tok.tok, ty) {
            (Tok::Word("zeroinitializer"), _) => {
                self.bump()?;
                Ok(Init::Zero)
            }
            (Tok::CStr(raw), Type::Array(n, elem)) if **elem == Type::I8 => {
                self.bump()?;
                let bytes = unescape(raw).into_owned();
                if bytes.len() as u64 != *n {
                    return Err(
                        self.err(span, format!("string constant has {} bytes, expected {n} for '{ty}'", bytes.len()))
                    );
                }
                Ok(Init::Bytes(bytes))
            }
            (Tok::Punct(b'['), Type::Array(n, elem)) => {
                self.bump()?;
                let mut items = Vec::new();
                if !self.is_punct(b']') {
                    loop {
                        let ety_span = self.tok.span;
                        let ety = self.ty()?;
                        if ety != **elem {
                            return Err(
                                self.err(ety_span, format!("array element has type '{ety}', expected '{elem}'"))
                            );
                        }
                        items.push(self.initializer(elem)?);
                        if !self.eat_punct(b',')? {
                            break;
                        }
                    }
                }
                self.expect_punct(b']', " to close the array constant")?;
                if items.len() as u64 != *n {
                    return Err(
                        self.err(span, format!("array constant has {} elements, expected {n} for '{ty}'", items.len()))
                    );
                }
                Ok(Init::Array(items))
            }
            (Tok::Word("undef" | "poison"), _) if matches!(ty, Type::Array(..)) => {
                let c = if self.is_word("undef") { Const::Undef } else { Const::Poison };
                self.bump()?;
                Ok(Init::Scalar(c))
            }
            (_, Type::Array(..)) => Err(self.expected(&format!("an array constant of type '{ty}'"))),
            (Tok::Global(name), Type::Ptr) => {
                Err(self.err(span, format!("unsupported initializer: address of '@{name}'")))
            }
            _ => Ok(Init::Scalar(self.constant(ty)?)),
        }
    }

    /// `define`/`declare` after the keyword.
    fn function(&mut self, is_definition: bool) -> PResult<()> {
        let (linkage, _) = self.linkage()?;
        let cc = self.calling_convention()?;
        self.param_attributes()?;
        let ret = self.ty()?;
        let span = self.tok.span;
        let raw = match self.tok.tok {
            Tok::Global(n) => n,
            _ => return Err(self.expected("a function name")),
        };
        let id = FuncId(self.module.functions.len() as u32);
        if self.symbols.get(raw) != Some(&Symbol::Func(id)) {
            return Err(self.err(span, format!("redefinition of '@{raw}'")));
        }
        self.bump()?;
        let mut f = FnState::default();
        self.expect_punct(b'(', " to open the parameter list")?;
        let mut varargs = false;
        if !self.is_punct(b')') {
            loop {
                if self.tok.tok == Tok::Ellipsis {
                    self.bump()?;
                    varargs = true;
                    break;
                }
                let ty = self.value_type()?;
                self.param_attributes()?;
                let index = f.params.len() as u32;
                let name = match self.tok.tok {
                    Tok::Local(n) => {
                        let nspan = self.tok.span;
                        self.bump()?;
                        if is_numeric(n) {
                            if n.parse::<u32>().ok() != Some(f.next_number) {
                                return Err(
                                    self.err(nspan, format!("argument expected to be numbered '%{}'", f.next_number))
                                );
                            }
                            f.next_number += 1;
                        }
                        if f.locals.insert(Key::of(n), Local::Param(index)).is_some() {
                            return Err(self.err(nspan, format!("redefinition of argument '%{n}'")));
                        }
                        Some(name_string(n))
                    }
                    _ => {
                        // Unnamed parameters take the next number, as in LLVM.
                        if is_definition {
                            let n = f.next_number;
                            f.next_number += 1;
                            f.locals.insert(Key::Num(n), Local::Param(index));
                            Some(n.to_string())
                        } else {
                            None
                        }
                    }
                };
                f.params.push(Param { ty, name });
                if !self.eat_punct(b',')? {
                    break;
                }
            }
        }
        self.expect_punct(b')', " to close the parameter list")?;
        self.function_attributes()?;
        let mut function = Function {
            name: name_string(raw),
            linkage,
            cc,
            ret,
            params: Vec::new(),
            varargs,
            blocks: Vec::new(),
            insts: Vec::new(),
            span,
        };
        function.params = f.params.clone();
        if is_definition {
            if !self.is_punct(b'{') {
                return Err(self.expected("'{' to start the function body"));
            }
            // Read later (see `parse`); skip to the token after the body's `}`.
            let name = function.name.clone();
            self.bodies.push(PendingBody { function: id, name, state: f, lex: self.lex.clone(), tok: self.tok });
            self.lex.skip_body();
            self.bump()?;
        }
        self.module.functions.push(function);
        Ok(())
    }

    // ---- function bodies ----

    fn body(&mut self, f: &mut FnState<'a>, function: &str) -> PResult<()> {
        self.bump()?; // '{'
        loop {
            if self.is_punct(b'}') {
                if f.blocks.is_empty() {
                    return Err(self.err(self.tok.span, format!("function '@{function}' has no blocks")));
                }
                self.bump()?;
                break;
            }
            let span = self.tok.span;
            let (name, key) = match self.tok.tok {
                Tok::Label(l) => {
                    self.bump()?;
                    if is_numeric(l) {
                        if l.parse::<u32>().ok() != Some(f.next_number) {
                            return Err(self.err(span, format!("label expected to be numbered '{}'", f.next_number)));
                        }
                        f.next_number += 1;
                    }
                    (name_string(l), Key::of(l))
                }
                _ => {
                    let n = f.next_number;
                    f.next_number += 1;
                    (n.to_string(), Key::Num(n))
                }
            };
            let index = f.blocks.len() as u32;
            let slot = self.block_slot(f, key, span);
            if f.slots[slot as usize].0.is_some() || f.locals.contains_key(&key) {
                return Err(self.err(span, format!("redefinition of label '%{name}'")));
            }
            f.slots[slot as usize].0 = Some(index);
            f.blocks.push(Block { name, insts: Vec::new(), span });
            loop {
                if matches!(self.tok.tok, Tok::Label(_) | Tok::Punct(b'}') | Tok::Eof) {
                    return Err(self.expected(&format!(
                        "an instruction (block '%{}' has no terminator)",
                        f.blocks[index as usize].name
                    )));
                }
                let id = self.instruction(f)?;
                f.blocks[index as usize].insts.push(id);
                if f.insts[id.0 as usize].kind.is_terminator() {
                    break;
                }
            }
        }
        self.resolve(f)
    }

    fn block_slot(&mut self, f: &mut FnState<'a>, name: Key<'a>, span: Span) -> u32 {
        let next = f.slots.len() as u32;
        let slot = *f.block_slot.entry(name).or_insert(next);
        if slot == next {
            f.slots.push((None, span, name));
        }
        slot
    }

    /// Patches forward references once the whole function is read.
    fn resolve(&mut self, f: &mut FnState<'a>) -> PResult<()> {
        let mut first_error: Option<(Span, String)> = None;
        let mut note = |span: Span, msg: String| {
            if first_error.as_ref().is_none_or(|(s, _)| span < *s) {
                first_error = Some((span, msg));
            }
        };
        for &(block, span, name) in &f.slots {
            if block.is_none() {
                note(span, format!("use of undefined label '%{name}'"));
            }
        }
        let mut resolved = Vec::with_capacity(f.pending.len());
        for (name, span, ty) in &f.pending {
            match f.locals.get(name) {
                Some(&Local::Inst(id)) => {
                    let def = &f.insts[id.0 as usize];
                    if def.ty != *ty {
                        note(def.span, format!("'%{name}' defined with type '{}' but expected '{ty}'", def.ty));
                    }
                    resolved.push(id);
                }
                _ => {
                    note(*span, format!("use of undefined value '%{name}'"));
                    resolved.push(InstId(0));
                }
            }
        }
        if let Some((span, msg)) = first_error {
            return Err(self.err(span, msg));
        }
        let identity = f.slots.iter().enumerate().all(|(i, s)| s.0 == Some(i as u32));
        if identity && resolved.is_empty() {
            return Ok(());
        }
        for inst in &mut f.insts {
            if !identity {
                inst.kind.for_each_block_mut(|b| *b = BlockId(f.slots[b.0 as usize].0.unwrap()));
            }
            if !resolved.is_empty() {
                inst.kind.for_each_value_mut(|v| {
                    if let Value::Inst(id) = v {
                        if id.0 & PENDING != 0 {
                            *id = resolved[(id.0 & !PENDING) as usize];
                        }
                    }
                });
            }
        }
        Ok(())
    }

    fn instruction(&mut self, f: &mut FnState<'a>) -> PResult<InstId> {
        let span = self.tok.span;
        let result = match self.tok.tok {
            Tok::Local(n) => {
                self.bump()?;
                self.expect_punct(b'=', " after the result name")?;
                Some((n, span))
            }
            _ => None,
        };
        let op_span = self.tok.span;
        let op = match self.tok.tok {
            Tok::Word(w) => w,
            _ => return Err(self.expected("an instruction opcode")),
        };
        self.bump()?;
        f.spans.clear();
        let (kind, ty) = self.inst_kind(f, op, op_span)?;
        self.skip_attachments()?;
        let id = InstId(f.insts.len() as u32);
        let name = match result {
            Some((n, nspan)) => {
                if ty == Type::Void {
                    return Err(self.err(nspan, format!("'%{n}': instructions returning void cannot have a name")));
                }
                if is_numeric(n) {
                    if n.parse::<u32>().ok() != Some(f.next_number) {
                        return Err(
                            self.err(nspan, format!("instruction expected to be numbered '%{}'", f.next_number))
                        );
                    }
                    f.next_number += 1;
                }
                self.define_local(f, Key::of(n), id, nspan)?;
                Some(name_string(n))
            }
            None if ty != Type::Void => {
                let n = f.next_number;
                f.next_number += 1;
                self.define_local(f, Key::Num(n), id, span)?;
                Some(n.to_string())
            }
            None => None,
        };
        f.insts.push(InstData { kind, ty, name, span, operand_spans: f.spans.clone() });
        Ok(id)
    }

    fn define_local(&mut self, f: &mut FnState<'a>, name: Key<'a>, id: InstId, span: Span) -> PResult<()> {
        let taken_by_block = f.block_slot.get(&name).is_some_and(|&s| f.slots[s as usize].0.is_some());
        if taken_by_block || f.locals.insert(name, Local::Inst(id)).is_some() {
            return Err(self.err(span, format!("redefinition of '%{name}'")));
        }
        Ok(())
    }

    fn flags(&mut self, set: &[&str]) -> PResult<()> {
        while let Tok::Word(w) = self.tok.tok {
            if !set.contains(&w) {
                break;
            }
            self.bump()?;
        }
        Ok(())
    }

    /// A type that values can have (not `void`).
    fn value_type(&mut self) -> PResult<Type> {
        self.nested_value_type(0)
    }

    /// A value type inside `depth` array types.
    fn nested_value_type(&mut self, depth: usize) -> PResult<Type> {
        let span = self.tok.span;
        let ty = self.nested_ty(depth)?;
        if ty == Type::Void {
            return Err(self.err(span, "'void' is only allowed as a return type"));
        }
        Ok(ty)
    }

    fn label(&mut self, f: &mut FnState<'a>) -> PResult<BlockId> {
        self.expect_word("label", "")?;
        match self.tok.tok {
            Tok::Local(n) => {
                let span = self.tok.span;
                self.bump()?;
                Ok(BlockId(self.block_slot(f, Key::of(n), span)))
            }
            _ => Err(self.expected("a block name after 'label'")),
        }
    }

    /// A typed operand `T v`.
    fn operand(&mut self, f: &mut FnState<'a>) -> PResult<Operand> {
        let ty = self.value_type()?;
        let value = self.value(f, &ty)?;
        Ok(Operand { ty, value })
    }

    fn expect_type(&self, span: Span, found: &Type, expected: &Type, what: &str) -> PResult<()> {
        if found != expected {
            return Err(self.err(span, format!("{what} has type '{found}' but '{expected}' is expected")));
        }
        Ok(())
    }

    fn inst_kind(&mut self, f: &mut FnState<'a>, op: &'a str, op_span: Span) -> PResult<(Inst, Type)> {
        let bin = |o: BinOp| Some(o);
        let binop = match op {
            "add" => bin(BinOp::Add),
            "sub" => bin(BinOp::Sub),
            "mul" => bin(BinOp::Mul),
            "sdiv" => bin(BinOp::SDiv),
            "udiv" => bin(BinOp::UDiv),
            "srem" => bin(BinOp::SRem),
            "urem" => bin(BinOp::URem),
            "and" => bin(BinOp::And),
            "or" => bin(BinOp::Or),
            "xor" => bin(BinOp::Xor),
            "shl" => bin(BinOp::Shl),
            "lshr" => bin(BinOp::LShr),
            "ashr" => bin(BinOp::AShr),
            "fadd" => bin(BinOp::FAdd),
            "fsub" => bin(BinOp::FSub),
            "fmul" => bin(BinOp::FMul),
            "fdiv" => bin(BinOp::FDiv),
            "frem" => bin(BinOp::FRem),
            _ => None,
        };
        if let Some(op) = binop {
            self.flags(if op.is_float() { FAST_MATH } else { INT_FLAGS })?;
            let ty_span = self.tok.span;
            let ty = self.value_type()?;
            let ok = if op.is_float() { ty.is_float() } else { ty.is_int() };
            if !ok {
                let kind = if op.is_float() { "floating-point" } else { "integer" };
                return Err(self.err(ty_span, format!("'{}' requires {kind} operands, found '{ty}'", op.mnemonic())));
            }
            let lhs = self.value(f, &ty)?;
            self.expect_punct(b',', " between the operands")?;
            let rhs = self.value(f, &ty)?;
            return Ok((Inst::Binary { op, lhs, rhs }, ty));
        }
        if let Some(cast) = cast_op(op) {
            self.flags(CAST_FLAGS)?;
            self.flags(FAST_MATH)?;
            let from = self.value_type()?;
            let val = self.value(f, &from)?;
            self.expect_word("to", &format!(" in '{op}'"))?;
            let to = self.value_type()?;
            return Ok((Inst::Cast { op: cast, from, val }, to));
        }
        match op {
            "fneg" => {
                self.flags(FAST_MATH)?;
                let ty_span = self.tok.span;
                let ty = self.value_type()?;
                if !ty.is_float() {
                    return Err(self.err(ty_span, format!("'fneg' requires a floating-point operand, found '{ty}'")));
                }
                let val = self.value(f, &ty)?;
                Ok((Inst::FNeg { val }, ty))
            }
            "icmp" => {
                self.eat_word("samesign")?;
                let pred = match self.tok.tok {
                    Tok::Word(w) => int_pred(w),
                    _ => None,
                }
                .ok_or_else(|| self.expected("an icmp predicate"))?;
                self.bump()?;
                let ty_span = self.tok.span;
                let ty = self.value_type()?;
                if !(ty.is_int() || ty == Type::Ptr) {
                    return Err(self.err(ty_span, format!("'icmp' requires integer or pointer operands, found '{ty}'")));
                }
                let lhs = self.value(f, &ty)?;
                self.expect_punct(b',', " between the operands")?;
                let rhs = self.value(f, &ty)?;
                Ok((Inst::ICmp { pred, ty, lhs, rhs }, Type::I1))
            }
            "fcmp" => {
                self.flags(FAST_MATH)?;
                let pred = match self.tok.tok {
                    Tok::Word(w) => float_pred(w),
                    _ => None,
                }
                .ok_or_else(|| self.expected("an fcmp predicate"))?;
                self.bump()?;
                let ty_span = self.tok.span;
                let ty = self.value_type()?;
                if !ty.is_float() {
                    return Err(self.err(ty_span, format!("'fcmp' requires floating-point operands, found '{ty}'")));
                }
                let lhs = self.value(f, &ty)?;
                self.expect_punct(b',', " between the operands")?;
                let rhs = self.value(f, &ty)?;
                Ok((Inst::FCmp { pred, ty, lhs, rhs }, Type::I1))
            }
            "select" => {
                self.flags(FAST_MATH)?;
                let cspan = self.tok.span;
                let cty = self.value_type()?;
                if cty != Type::I1 {
                    return Err(self.err(cspan, format!("'select' condition must be i1, found {cty}")));
                }
                let cond = self.value(f, &cty)?;
                self.expect_punct(b',', "")?;
                let ty = self.value_type()?;
                let if_true = self.value(f, &ty)?;
                self.expect_punct(b',', "")?;
                let fspan = self.tok.span;
                let fty = self.value_type()?;
                self.expect_type(fspan, &fty, &ty, "the second 'select' value")?;
                let if_false = self.value(f, &ty)?;
                Ok((Inst::Select { cond, if_true, if_false }, ty))
            }
            "alloca" => {
                if let Tok::Word(w @ ("inalloca" | "swifterror")) = self.tok.tok {
                    return Err(self.err(self.tok.span, format!("unsupported alloca attribute '{w}'")));
                }
                let ty = self.value_type()?;
                let mut count = None;
                let mut align = None;
                while self.is_punct(b',') {
                    let next = self.peek()?;
                    match next.tok {
                        Tok::Word("align") => {
                            self.bump()?;
                            self.bump()?;
                            align = Some(self.alignment()?);
                        }
                        Tok::Word("addrspace") => {
                            self.bump()?;
                            self.address_space()?;
                            self.bump()?;
                        }
                        Tok::Meta(_) => break,
                        _ if count.is_none() && align.is_none() => {
                            self.bump()?;
                            let cspan = self.tok.span;
                            let c = self.operand(f)?;
                            if !c.ty.is_int() {
                                return Err(self.err(
                                    cspan,
                                    format!("'alloca' element count must be an integer, found '{}'", c.ty),
                                ));
                            }
                            count = Some(c);
                        }
                        _ => {
                            self.bump()?;
                            return Err(self.expected("'align' in 'alloca'"));
                        }
                    }
                }
                Ok((Inst::Alloca { ty, count, align }, Type::Ptr))
            }
            "load" => {
                if self.is_word("atomic") {
                    return Err(self.err(self.tok.span, "unsupported atomic load"));
                }
                let volatile = self.eat_word("volatile")?;
                let ty = self.value_type()?;
                self.expect_punct(b',', " after the loaded type")?;
                let pspan = self.tok.span;
                let pty = self.value_type()?;
                self.expect_type(pspan, &pty, &Type::Ptr, "the address of 'load'")?;
                let ptr = self.value(f, &Type::Ptr)?;
                let align = self.trailing_align()?;
                Ok((Inst::Load { ptr, align, volatile }, ty))
            }
            "store" => {
                if self.is_word("atomic") {
                    return Err(self.err(self.tok.span, "unsupported atomic store"));
                }
                let volatile = self.eat_word("volatile")?;
                let val = self.operand(f)?;
                self.expect_punct(b',', " after the stored value")?;
                let pspan = self.tok.span;
                let pty = self.value_type()?;
                self.expect_type(pspan, &pty, &Type::Ptr, "the address of 'store'")?;
                let ptr = self.value(f, &Type::Ptr)?;
                let align = self.trailing_align()?;
                Ok((Inst::Store { val, ptr, align, volatile }, Type::Void))
            }
            "getelementptr" => {
                let mut inbounds = false;
                loop {
                    match self.tok.tok {
                        Tok::Word("inbounds") => inbounds = true,
                        Tok::Word("nuw" | "nusw") => {}
                        Tok::Word("inrange") => {
                            return Err(self.err(self.tok.span, "unsupported 'inrange' on getelementptr"))
                        }
                        _ => break,
                    }
                    self.bump()?;
                }
                let source = self.value_type()?;
                self.expect_punct(b',', " after the source element type")?;
                let bspan = self.tok.span;
                let bty = self.value_type()?;
                self.expect_type(bspan, &bty, &Type::Ptr, "the base of 'getelementptr'")?;
                let base = self.value(f, &Type::Ptr)?;
                let mut indices = Vec::new();
                while self.is_punct(b',') && !matches!(self.peek()?.tok, Tok::Meta(_)) {
                    self.bump()?;
                    let ispan = self.tok.span;
                    let idx = self.operand(f)?;
                    if !idx.ty.is_int() {
                        return Err(
                            self.err(ispan, format!("'getelementptr' index must be an integer, found '{}'", idx.ty))
                        );
                    }
                    indices.push(idx);
                }
                Ok((Inst::Gep { inbounds, source, base, indices }, Type::Ptr))
            }
            "phi" => {
                self.flags(FAST_MATH)?;
                let ty = self.value_type()?;
                let mut incoming = Vec::new();
                loop {
                    self.expect_punct(b'[', " to open a phi entry")?;
                    let v = self.value(f, &ty)?;
                    self.expect_punct(b',', " in a phi entry")?;
                    let span = self.tok.span;
                    let b = match self.tok.tok {
                        Tok::Local(n) => {
                            self.bump()?;
                            BlockId(self.block_slot(f, Key::of(n), span))
                        }
                        _ => return Err(self.expected("a block name in a phi entry")),
                    };
                    self.expect_punct(b']', " to close a phi entry")?;
                    incoming.push((v, b));
                    if !(self.is_punct(b',') && self.peek()?.tok == Tok::Punct(b'[')) {
                        break;
                    }
                    self.bump()?;
                }
                Ok((Inst::Phi { incoming }, ty))
            }
            "call" => self.call(f, TailKind::None),
            "tail" | "musttail" | "notail" => {
                let tail = match op {
                    "tail" => TailKind::Tail,
                    "musttail" => TailKind::MustTail,
                    _ => TailKind::NoTail,
                };
                self.expect_word("call", &format!(" after '{op}'"))?;
                self.call(f, tail)
            }
            "br" => {
                if self.is_word("label") {
                    let dest = self.label(f)?;
                    return Ok((Inst::Br { dest }, Type::Void));
                }
                let cspan = self.tok.span;
                let cty = self.value_type()?;
                if cty != Type::I1 {
                    return Err(self.err(cspan, format!("'br' condition must be i1, found {cty}")));
                }
                let cond = self.value(f, &cty)?;
                self.expect_punct(b',', " after the branch condition")?;
                let if_true = self.label(f)?;
                self.expect_punct(b',', " between the branch targets")?;
                let if_false = self.label(f)?;
                Ok((Inst::CondBr { cond, if_true, if_false }, Type::Void))
            }
            "switch" => {
                let tspan = self.tok.span;
                let ty = self.value_type()?;
                let bits = match ty {
                    Type::Int(b) => b,
                    _ => return Err(self.err(tspan, format!("'switch' requires an integer operand, found '{ty}'"))),
                };
                let val = self.value(f, &ty)?;
                self.expect_punct(b',', " after the switch value")?;
                let default = self.label(f)?;
                self.expect_punct(b'[', " to open the switch cases")?;
                let mut cases = Vec::new();
                while !self.is_punct(b']') {
                    let cspan = self.tok.span;
                    let cty = self.value_type()?;
                    self.expect_type(cspan, &cty, &ty, "the case value")?;
                    let c = self.int_literal(bits)?;
                    self.expect_punct(b',', " after the case value")?;
                    let dest = self.label(f)?;
                    cases.push((c, dest));
                }
                self.bump()?;
                Ok((Inst::Switch { ty, val, default, cases }, Type::Void))
            }
            "ret" => {
                if self.eat_word("void")? {
                    return Ok((Inst::Ret { val: None }, Type::Void));
                }
                let val = self.operand(f)?;
                Ok((Inst::Ret { val: Some(val) }, Type::Void))
            }
            "unreachable" => Ok((Inst::Unreachable, Type::Void)),
            _ if UNSUPPORTED_OPCODES.contains(&op) => Err(self.err(op_span, format!("unsupported instruction '{op}'"))),
            _ => Err(self.err(op_span, format!("expected an instruction opcode, found '{op}'"))),
        }
    }

    /// `, align N` after load/store (metadata attachments are left for the caller).
    fn trailing_align(&mut self) -> PResult<Option<u64>> {
        if self.is_punct(b',') && self.peek()?.tok == Tok::Word("align") {
            self.bump()?;
            self.bump()?;
            return Ok(Some(self.alignment()?));
        }
        Ok(None)
    }

    fn call(&mut self, f: &mut FnState<'a>, tail: TailKind) -> PResult<(Inst, Type)> {
        self.flags(FAST_MATH)?;
        let cc = self.calling_convention()?;
        self.param_attributes()?;
        let ret = self.ty()?;
        let explicit = if self.is_punct(b'(') {
            self.bump()?;
            let mut params = Vec::new();
            let mut varargs = false;
            if !self.is_punct(b')') {
                loop {
                    if self.tok.tok == Tok::Ellipsis {
                        self.bump()?;
                        varargs = true;
                        break;
                    }
                    params.push(self.value_type()?);
                    self.param_attributes()?;
                    if !self.eat_punct(b',')? {
                        break;
                    }
                }
            }
            self.expect_punct(b')', " to close the function type")?;
            Some(Signature { ret: ret.clone(), params, varargs })
        } else {
            None
        };
        if self.is_word("asm") {
            return Err(self.err(self.tok.span, "unsupported inline asm"));
        }
        let callee = self.value(f, &Type::Ptr)?;
        self.expect_punct(b'(', " to open the call arguments")?;
        let mut args = Vec::new();
        if !self.is_punct(b')') {
            loop {
                let ty = self.value_type()?;
                self.param_attributes()?;
                let value = self.value(f, &ty)?;
                args.push(Operand { ty, value });
                if !self.eat_punct(b',')? {
                    break;
                }
            }
        }
        self.expect_punct(b')', " to close the call arguments")?;
        // Call-site function attributes: anything up to the next instruction or attachment.
        loop {
            if self.is_punct(b'[') {
                return Err(self.err(self.tok.span, "unsupported operand bundle on 'call'"));
            }
            if !self.skip_attribute(|w| !is_opcode(w))? {
                break;
            }
        }
        let sig = explicit.unwrap_or_else(|| Signature {
            ret: ret.clone(),
            params: args.iter().map(|a| a.ty.clone()).collect(),
            varargs: false,
        });
        Ok((Inst::Call { cc, callee, sig, args, tail }, ret))
    }

    // ---- types and values ----

    /// A type, including `void`.
    fn ty(&mut self) -> PResult<Type> {
        self.nested_ty(0)
    }

    /// A type inside `depth` array types.
    fn nested_ty(&mut self, depth: usize) -> PResult<Type> {
        let t = self.tok;
        let ty = match t.tok {
            Tok::Word(w) => {
                let ty = match w {
                    "void" => Type::Void,
                    "i1" => Type::I1,
                    "i8" => Type::I8,
                    "i16" => Type::I16,
                    "i32" => Type::I32,
                    "i64" => Type::I64,
                    "float" => Type::Float,
                    "double" => Type::Double,
                    "ptr" => Type::Ptr,
                    _ if w.starts_with('i') && is_numeric(&w[1..]) => {
                        return Err(self.err(t.span, format!("unsupported type '{w}'")));
                    }
                    "half" | "bfloat" | "fp128" | "x86_fp80" | "ppc_fp128" | "x86_amx" | "x86_mmx" | "label"
                    | "metadata" | "token" | "opaque" | "target" => {
                        return Err(self.err(t.span, format!("unsupported type '{w}'")));
                    }
                    _ => return Err(self.expected("a type")),
                };
                self.bump()?;
                if ty == Type::Ptr && self.is_word("addrspace") {
                    self.address_space()?;
                    self.bump()?;
                }
                ty
            }
            Tok::Punct(b'[') => {
                if depth == MAX_TYPE_NESTING {
                    return Err(self.err(t.span, format!("array types nested more than {MAX_TYPE_NESTING} deep")));
                }
                self.bump()?;
                let n = self.unsigned("an array length")?;
                self.expect_word("x", " in an array type")?;
                let elem = self.nested_value_type(depth + 1)?;
                self.expect_punct(b']', " to close the array type")?;
                Type::Array(n, Box::new(elem))
            }
            Tok::Punct(c @ (b'{' | b'<')) => {
                let text = self.bracketed_text(t.offset);
                let kind = if c == b'{' {
                    "struct"
                } else if text.starts_with("<{") {
                    "packed struct"
                } else {
                    "vector"
                };
                return Err(self.err(t.span, format!("unsupported {kind} type '{text}'")));
            }
            _ => return Err(self.expected("a type")),
        };
        if self.is_punct(b'*') {
            return Err(self.err(t.span, format!("unsupported typed pointer '{ty}*' (use 'ptr')")));
        }
        Ok(ty)
    }

    /// The source text of a bracketed construct starting at `offset`, for messages.
    fn bracketed_text(&self, offset: usize) -> &'a str {
        let src = self.lex.source();
        let b = src.as_bytes();
        let mut depth = 0i32;
        let mut i = offset;
        while i < b.len() && b[i] != b'\n' {
            match b[i] {
                b'{' | b'<' | b'[' | b'(' => depth += 1,
                b'}' | b'>' | b']' | b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return &src[offset..=i];
                    }
                }
                _ => {}
            }
            i += 1;
        }
        &src[offset..i]
    }

    /// An integer literal of width `bits`, sign-extended.
    fn int_literal(&mut self, bits: u8) -> PResult<i64> {
        let span = self.tok.span;
        let v = match self.tok.tok {
            Tok::Int(t) => int_in_width(t, bits)
                .ok_or_else(|| self.err(span, format!("integer constant {t} does not fit in i{bits}")))?,
            Tok::Word("true") if bits == 1 => -1,
            Tok::Word("false") if bits == 1 => 0,
            _ => return Err(self.expected(&format!("an i{bits} constant"))),
        };
        self.bump()?;
        Ok(v)
    }

    /// A value of type `ty`: a local, a global's address, or a constant. Records its position.
    fn value(&mut self, f: &mut FnState<'a>, ty: &Type) -> PResult<Value> {
        let span = self.tok.span;
        f.spans.push(span);
        match self.tok.tok {
            Tok::Local(raw) => {
                self.bump()?;
                let n = Key::of(raw);
                let (value, found) = match f.locals.get(&n).copied() {
                    Some(Local::Param(i)) => (Value::Param(i), &f.params[i as usize].ty),
                    Some(Local::Inst(id)) => (Value::Inst(id), &f.insts[id.0 as usize].ty),
                    None => {
                        if f.block_slot.get(&n).is_some_and(|&s| f.slots[s as usize].0.is_some()) {
                            return Err(self.err(span, format!("'%{n}' is a block label, not a value")));
                        }
                        let next = f.pending.len() as u32;
                        let k = *f.pending_index.entry(n).or_insert(next);
                        if k == next {
                            f.pending.push((n, span, ty.clone()));
                        } else if f.pending[k as usize].2 != *ty {
                            let first = &f.pending[k as usize].2;
                            return Err(
                                self.err(span, format!("'%{n}' used with type '{ty}' but earlier with '{first}'"))
                            );
                        }
                        return Ok(Value::Inst(InstId(PENDING | k)));
                    }
                };
                if found != ty {
                    return Err(self.err(span, format!("'%{n}' defined with type '{found}' but expected '{ty}'")));
                }
                Ok(value)
            }
            Tok::Global(n) => {
                self.bump()?;
                let sym =
                    *self.symbols.get(n).ok_or_else(|| self.err(span, format!("use of undefined value '@{n}'")))?;
                if *ty != Type::Ptr {
                    return Err(self.err(span, format!("'@{n}' is a pointer but '{ty}' is expected")));
                }
                Ok(match sym {
                    Symbol::Global(g) => Value::Global(g),
                    Symbol::Func(func) => Value::Func(func),
                })
            }
            _ => Ok(Value::Const(self.constant(ty)?)),
        }
    }

    /// A constant of type `ty`.
    fn constant(&mut self, ty: &Type) -> PResult<Const> {
        let span = self.tok.span;
        let c = match self.tok.tok {
            Tok::Int(t) => match ty {
                Type::Int(bits) => Const::Int(
                    int_in_width(t, *bits)
                        .ok_or_else(|| self.err(span, format!("integer constant {t} does not fit in {ty}")))?,
                ),
                _ if ty.is_float() => {
                    return Err(
                        self.err(span, format!("floating-point constant '{t}' must be written with a '.' or in hex"))
                    );
                }
                _ => return Err(self.err(span, format!("integer constant {t} used where '{ty}' is expected"))),
            },
            Tok::Float(t) => {
                let v: f64 =
                    t.parse().map_err(|_| self.err(span, format!("malformed floating-point constant '{t}'")))?;
                self.float_const(v, ty, t, span)?
            }
            Tok::Hex(t) => {
                let digits = &t[2..];
                if matches!(digits.as_bytes().first(), Some(b'K' | b'L' | b'M' | b'H' | b'R')) {
                    return Err(self.err(span, format!("unsupported floating-point literal '{t}'")));
                }
                if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(self.err(span, format!("malformed hexadecimal constant '{t}'")));
                }
                if !ty.is_float() {
                    return Err(self.err(span, format!("hexadecimal constant '{t}' used where '{ty}' is expected")));
                }
                let bits = u64::from_str_radix(digits, 16).unwrap();
                self.float_const(f64::from_bits(bits), ty, t, span)?
            }
            Tok::Word(w @ ("true" | "false")) => {
                if *ty != Type::I1 {
                    return Err(self.err(span, format!("'{w}' is an i1 constant but '{ty}' is expected")));
                }
                Const::Int(if w == "true" { -1 } else { 0 })
            }
            Tok::Word("null") => {
                if *ty != Type::Ptr {
                    return Err(self.err(span, format!("'null' is a pointer constant but '{ty}' is expected")));
                }
                Const::Zero
            }
            Tok::Word("zeroinitializer") => Const::Zero,
            Tok::Word("undef") => Const::Undef,
            Tok::Word("poison") => Const::Poison,
            Tok::Word("inttoptr") => {
                self.bump()?;
                self.expect_punct(b'(', " after 'inttoptr'")?;
                let ispan = self.tok.span;
                let ity = self.value_type()?;
                let bits = match ity {
                    Type::Int(b) => b,
                    _ => return Err(self.err(ispan, format!("'inttoptr' requires an integer operand, found '{ity}'"))),
                };
                let v = self.int_literal(bits)?;
                // inttoptr zero-extends narrower integers to the pointer width.
                let v = if bits < 64 { ((v as u64) & ((1u64 << bits) - 1)) as i64 } else { v };
                self.expect_word("to", " in 'inttoptr'")?;
                let tspan = self.tok.span;
                let to = self.value_type()?;
                self.expect_type(tspan, &to, &Type::Ptr, "the result of 'inttoptr'")?;
                if !self.is_punct(b')') {
                    return Err(self.expected("')' to close 'inttoptr'"));
                }
                if *ty != Type::Ptr {
                    return Err(self.err(span, format!("'inttoptr' constant is a pointer but '{ty}' is expected")));
                }
                Const::IntToPtr(v)
            }
            Tok::Word(
                w @ ("getelementptr"
                | "bitcast"
                | "ptrtoint"
                | "addrspacecast"
                | "trunc"
                | "zext"
                | "sext"
                | "add"
                | "sub"
                | "mul"
                | "shl"
                | "xor"
                | "and"
                | "or"
                | "icmp"
                | "fcmp"
                | "select"
                | "extractelement"
                | "insertelement"
                | "shufflevector"
                | "blockaddress"
                | "dso_local_equivalent"
                | "no_cfi"),
            ) => return Err(self.err(span, format!("unsupported constant expression '{w}'"))),
            Tok::Word("asm") => return Err(self.err(span, "unsupported inline asm")),
            Tok::Punct(b'[' | b'{' | b'<') | Tok::CStr(_) => {
                return Err(self.err(span, "unsupported aggregate constant as an operand"));
            }
            _ => return Err(self.expected(&format!("a value of type '{ty}'"))),
        };
        if *ty == Type::Void {
            return Err(self.err(span, "a value cannot have type 'void'"));
        }
        self.bump()?;
        Ok(c)
    }

    fn float_const(&self, v: f64, ty: &Type, text: &str, span: Span) -> PResult<Const> {
        match ty {
            Type::Double => Ok(Const::Float(v)),
            Type::Float => {
                if v.is_nan() || (v as f32) as f64 == v {
                    Ok(Const::Float(v))
                } else {
                    Err(self
                        .err(span, format!("floating-point constant '{text}' is not exactly representable as 'float'")))
                }
            }
            _ => Err(self.err(span, format!("floating-point constant '{text}' used where '{ty}' is expected"))),
        }
    }
}

fn cast_op(op: &str) -> Option<CastOp> {
    Some(match op {
        "zext" => CastOp::ZExt,
        "sext" => CastOp::SExt,
        "trunc" => CastOp::Trunc,
        "sitofp" => CastOp::SIToFP,
        "uitofp" => CastOp::UIToFP,
        "fptosi" => CastOp::FPToSI,
        "fptoui" => CastOp::FPToUI,
        "fpext" => CastOp::FPExt,
        "fptrunc" => CastOp::FPTrunc,
        "bitcast" => CastOp::BitCast,
        "ptrtoint" => CastOp::PtrToInt,
        "inttoptr" => CastOp::IntToPtr,
        _ => return None,
    })
}

fn int_pred(w: &str) -> Option<IntPred> {
    Some(match w {
        "eq" => IntPred::Eq,
        "ne" => IntPred::Ne,
        "ugt" => IntPred::Ugt,
        "uge" => IntPred::Uge,
        "ult" => IntPred::Ult,
        "ule" => IntPred::Ule,
        "sgt" => IntPred::Sgt,
        "sge" => IntPred::Sge,
        "slt" => IntPred::Slt,
        "sle" => IntPred::Sle,
        _ => return None,
    })
}

fn float_pred(w: &str) -> Option<FloatPred> {
    Some(match w {
        "false" => FloatPred::False,
        "oeq" => FloatPred::Oeq,
        "ogt" => FloatPred::Ogt,
        "oge" => FloatPred::Oge,
        "olt" => FloatPred::Olt,
        "ole" => FloatPred::Ole,
        "one" => FloatPred::One,
        "ord" => FloatPred::Ord,
        "ueq" => FloatPred::Ueq,
        "ugt" => FloatPred::Ugt,
        "uge" => FloatPred::Uge,
        "ult" => FloatPred::Ult,
        "ule" => FloatPred::Ule,
        "une" => FloatPred::Une,
        "uno" => FloatPred::Uno,
        "true" => FloatPred::True,
        _ => return None,
    })
}

/// Collects every global and function name with the id it will get, so that uses may precede
/// definitions. Lexing errors end the scan; the main pass reports them.
fn prescan<'a>(file: &'a str, text: &'a str) -> NameMap<&'a str, Symbol> {
    let mut symbols = NameMap::default();
    let mut lex = Lexer::new(file, text);
    let (mut funcs, mut globals) = (0u32, 0u32);
    let mut after_define = false;
    // Between `define` and its body's `{`: the body holds no top-level names and is skipped unread.
    let mut in_definition = false;
    let mut last_global: Option<&'a str> = None;
    while let Ok(t) = lex.next_token() {
        match t.tok {
            Tok::Eof => break,
            Tok::Punct(b'{') if in_definition => {
                lex.skip_body();
                in_definition = false;
                last_global = None;
            }
            Tok::Word(w @ ("define" | "declare")) => {
                after_define = true;
                in_definition = w == "define";
                last_global = None;
            }
            Tok::Global(n) if after_define => {
                symbols.entry(n).or_insert(Symbol::Func(FuncId(funcs)));
                funcs += 1;
                after_define = false;
            }
            Tok::Global(n) => last_global = Some(n),
            Tok::Punct(b'=') => {
                if let Some(n) = last_global.take() {
                    symbols.entry(n).or_insert(Symbol::Global(GlobalId(globals)));
                    globals += 1;
                }
            }
            _ => last_global = None,
        }
    }
    symbols
}
