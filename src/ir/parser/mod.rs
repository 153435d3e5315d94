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
//! meaning are skipped. Metadata tuples of strings are kept by name while the top level is read:
//! `hwreg` and `noclobber` (of `explicitcc` functions) name registers through them; headers may
//! refer to nodes defined further down, so theirs are resolved at the end of the top level.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

mod body;
mod instructions;
mod top_level;
mod types;

use super::lexer::{Lexer, Tok, Token};
use super::{
    BinOp, Block, BlockId, CallConv, CastOp, Clause, Comdat, Const, Extension, Extensions, FloatPred, FramePointerKind,
    FuncId, Function, Global, GlobalId, Init, Inst, InstData, InstId, IntPred, Intrinsic, InvokeDests, IrError,
    Linkage, Module, NoClobber, Operand, Ordering, Param, ParamAbi, Personality, Placement, RegisterName, RmwOp,
    Signature, Span, StatepointDirectives, StructType, Symbol, TailKind, Type, Value, ValueName, MAX_VECTOR_BYTES,
    MAX_VECTOR_LANES,
};

/// Parses LLVM IR text. `file_name` is only used in error messages. Patch point targets computed
/// from constants are folded into them, as llc folds them ([`super::points::fold_patch_point_targets`]).
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
    let mut module = std::mem::take(&mut parser.module);
    // Function bodies only need the module's names, which the pre-scan found: they are read after the
    // top level, in parallel when there are many. Errors still come in file order: a body before a
    // top-level error is read (and reported) first.
    let results = match &top_level {
        Ok(()) => crate::workers::map(&bodies, 16, |b| b.read(file_name, &parser)),
        Err(_) => bodies.iter().map(|b| b.read(file_name, &parser)).collect(),
    };
    for (body, result) in bodies.iter().zip(results) {
        let (blocks, insts) = result?;
        let function = &mut module.functions[body.function.0 as usize];
        function.blocks = blocks;
        function.insts = insts;
    }
    top_level?;
    super::points::fold_patch_point_targets(&mut module);
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
    /// The lines the body spans, which the skip over it counted.
    lines: usize,
}

impl<'a> PendingBody<'a> {
    /// Reads the body with the names `top` (the top-level pass's parser) found.
    fn read(&self, file: &'a str, top: &Parser<'a>) -> PResult<(Vec<Block>, Vec<InstData>)> {
        let mut parser = Parser {
            file,
            lex: self.lex.clone(),
            tok: self.tok,
            symbols: Arc::clone(&top.symbols),
            types: Arc::clone(&top.types),
            type_defs: NameMap::default(),
            type_starts: Vec::new(),
            defined_types: NameMap::default(),
            module: Module::default(),
            bodies: Vec::new(),
            body_ends: Vec::new().into_iter(),
            statepoint_groups: Arc::clone(&top.statepoint_groups),
            metadata: Arc::clone(&top.metadata),
            metadata_complete: top.metadata_complete,
            pending_registers: Vec::new(),
            frame_pointer_groups: NameMap::default(),
            pending_groups: Vec::new(),
            nesting: 0,
        };
        let mut state = self.state.clone();
        // About one instruction a line: sized up front, the instructions and names are not copied
        // and rehashed as they grow.
        state.insts.reserve(self.lines);
        state.locals.reserve(self.lines);
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

/// A function-local name. Values and block labels share one namespace: a label is entered once
/// defined, so that defining a value finds a clash with the one lookup it makes anyway.
#[derive(Clone, Copy)]
enum Local {
    Param(u32),
    Inst(InstId),
    Block,
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
    "addrspacecast",
    "alloca",
    "load",
    "store",
    "getelementptr",
    "extractvalue",
    "insertvalue",
    "phi",
    "call",
    "tail",
    "musttail",
    "notail",
    "br",
    "switch",
    "indirectbr",
    "ret",
    "unreachable",
    "atomicrmw",
    "fence",
    "freeze",
    "cmpxchg",
    "extractelement",
    "insertelement",
    "shufflevector",
    "invoke",
    "landingpad",
    "resume",
];
/// Instruction words of LLVM the subset rejects by name.
const UNSUPPORTED_OPCODES: &[&str] =
    &["callbr", "va_arg", "cleanuppad", "catchpad", "catchswitch", "catchret", "cleanupret"];

/// Whether a word starts an instruction, supported or not: attribute lists stop there.
fn is_opcode(word: &str) -> bool {
    SUPPORTED_OPCODES.contains(&word) || UNSUPPORTED_OPCODES.contains(&word)
}
const TOP_LEVEL: &[&str] =
    &["define", "declare", "attributes", "target", "source_filename", "module", "uselistorder", "uselistorder_bb"];
/// Parameter and return attributes that change the calling convention or memory layout.
const UNSUPPORTED_PARAM_ATTRS: &[&str] =
    &["inalloca", "preallocated", "byref", "swifterror", "swiftself", "swiftasync"];
/// Parameter and return attributes that are only optimisation hints.
const PARAM_ATTRS: &[&str] = &[
    "noundef",
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
const UNSUPPORTED_FN_PARTS: &[&str] = &["prefix", "prologue", "partition"];
const UNSUPPORTED_LINKAGE: &[&str] = &["dllimport", "dllexport", "ifunc", "alias"];

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

/// [`name_string`] for an instruction's result, which most often needs no copy of its own.
fn value_name(raw: &str) -> ValueName {
    match unescape(raw) {
        Cow::Borrowed(_) => ValueName::from(raw),
        Cow::Owned(v) => ValueName::from(String::from_utf8_lossy(&v).into_owned()),
    }
}

/// Whether a word names a calling convention (other than the ones the subset knows).
fn is_calling_convention(w: &str) -> bool {
    const PREFIXES: &[&str] =
        &["x86_", "arm_", "aarch64_", "amdgpu_", "spir_", "ptx_", "msp430_", "avr_", "riscv_", "m68k_"];
    (w.ends_with("cc") && w != "cc") || PREFIXES.iter().any(|p| w.starts_with(p))
}

/// Deepest nesting of array types: every pass over a type recurses once per level.
const MAX_TYPE_NESTING: usize = 256;

/// Deepest nesting of constant expressions (`getelementptr (i8, ptr getelementptr (...), ...)`,
/// `ptrtoint`, `add`, ...) and of function types in `elementtype(...)` inside function types: the
/// reader recurses once per level, on worker threads too. Expressions are folded as they are read,
/// so nothing after the parser recurses over them.
const MAX_EXPRESSION_NESTING: usize = 256;

struct Parser<'a> {
    file: &'a str,
    lex: Lexer<'a>,
    tok: Token<'a>,
    symbols: Arc<NameMap<&'a str, Symbol>>,
    /// Identified struct types resolved so far (all of them once the top level is read).
    types: Arc<NameMap<&'a str, Type>>,
    /// Identified types not resolved yet: uses may precede definitions, which are read on first use.
    type_defs: NameMap<&'a str, TypeDef>,
    /// Where each `%name = type` definition's body starts, in textual order (from the pre-scan).
    type_starts: Vec<(Lexer<'a>, Token<'a>)>,
    /// The type names whose definition the top-level pass has read, to find redefinitions.
    defined_types: NameMap<&'a str, ()>,
    module: Module,
    bodies: Vec<PendingBody<'a>>,
    /// The pre-scan's ends of the function bodies not yet reached by the top-level pass.
    body_ends: std::vec::IntoIter<(usize, Lexer<'a>)>,
    /// The statepoint directives each attribute group `#N` holds (read by the top-level pass).
    statepoint_groups: Arc<NameMap<&'a str, StatepointDirectives>>,
    /// The metadata nodes `!N = ...` of the module (all of them once the top level is read).
    metadata: Arc<NameMap<&'a str, MetadataNode>>,
    /// Whether `metadata` holds every node of the module (the top level was read to its end).
    metadata_complete: bool,
    /// `hwreg` and `noclobber` of function headers, whose metadata may be defined further down:
    /// resolved at the end of the top level.
    pending_registers: Vec<PendingRegisters<'a>>,
    /// The `"frame-pointer"` value of each attribute group that has one (top level only).
    frame_pointer_groups: NameMap<&'a str, FramePointerKind>,
    /// The attribute groups `#N` each function header names, resolved at the end of the top level
    /// (groups are usually defined after the functions).
    pending_groups: Vec<(FuncId, &'a str)>,
    /// How many constant expressions or `elementtype` function types the reader is inside.
    nesting: usize,
}

/// A metadata node as `hwreg` and `noclobber` need it: a tuple of strings (each with where it is
/// written), or anything else.
#[derive(Clone)]
enum MetadataNode {
    Strings(Vec<(String, Span)>),
    Other,
}

/// The operand of `hwreg(metadata ...)` or `noclobber(metadata ...)`: a node's name (`!7`), or a
/// tuple written in place.
#[derive(Clone)]
enum MetadataRef<'a> {
    Named(&'a str, Span),
    Inline(MetadataNode),
}

/// `hwreg(metadata ...)` or `noclobber(metadata ...)`: its operand, and where the attribute is.
type MetadataAttribute<'a> = (MetadataRef<'a>, Span);

/// What `param_attributes` read beyond the skipped hints.
struct ParamAttributes<'a> {
    /// `byval`, `sret`, `elementtype`, or `hwreg` (its register to be filled in from `hwreg`).
    abi: ParamAbi,
    /// Where a `nest` attribute was.
    nest: Option<Span>,
    /// `hwreg(metadata ...)`: its operand, and where the attribute is.
    hwreg: Option<MetadataAttribute<'a>>,
    /// `signext` or `zeroext`.
    ext: Extension,
}

/// Which header attribute a pending metadata reference belongs to.
enum RegistersOf {
    /// `hwreg` of the parameter.
    Param(FuncId, usize),
    /// `noclobber` of the function.
    NoClobber(FuncId),
}

/// A header's `hwreg` or `noclobber` waiting for the module's metadata.
struct PendingRegisters<'a> {
    of: RegistersOf,
    reference: MetadataRef<'a>,
    /// Where the attribute is.
    span: Span,
}

/// An identified type not resolved yet.
#[derive(Clone, Copy)]
enum TypeDef {
    /// Defined at `type_starts[i]`.
    Pending(usize),
    /// Being read: a use now means the type contains itself.
    InProgress,
}

type PResult<T> = Result<T, IrError>;

impl<'a> Parser<'a> {
    fn new(file: &'a str, text: &'a str) -> PResult<Parser<'a>> {
        let mut lex = Lexer::new(file, text);
        let tok = lex.next_token()?;
        let Prescan { symbols, type_starts, body_ends } = prescan(file, text);
        let mut type_defs = NameMap::default();
        for (i, (_, start)) in type_starts.iter().enumerate() {
            if let Tok::Local(name) = start.tok {
                type_defs.entry(name).or_insert(TypeDef::Pending(i));
            }
        }
        // The pre-scan kept each definition's lexer just after `type`: the body's first token is next.
        let mut starts = Vec::with_capacity(type_starts.len());
        for (mut body_lex, _) in type_starts {
            let tok = body_lex.next_token()?;
            starts.push((body_lex, tok));
        }
        let module = Module { file: file.to_string(), ..Module::default() };
        Ok(Parser {
            file,
            lex,
            tok,
            symbols: Arc::new(symbols),
            types: Arc::new(NameMap::default()),
            type_defs,
            type_starts: starts,
            defined_types: NameMap::default(),
            module,
            bodies: Vec::new(),
            body_ends: body_ends.into_iter(),
            statepoint_groups: Arc::new(NameMap::default()),
            metadata: Arc::new(NameMap::default()),
            metadata_complete: false,
            pending_registers: Vec::new(),
            frame_pointer_groups: NameMap::default(),
            pending_groups: Vec::new(),
            nesting: 0,
        })
    }

    // ---- token plumbing ----

    // Inlined, as `eat_punct` and `eat_word`: every token passes through them.
    #[inline]
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

    /// Reads a construct that may contain itself (`what`, plural, at `span`) one level deeper,
    /// refusing more than [`MAX_EXPRESSION_NESTING`] levels: the reader recurses once per level.
    fn nested<T>(&mut self, span: Span, what: &str, read: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.nesting == MAX_EXPRESSION_NESTING {
            return Err(self.err(span, format!("{what} nested more than {MAX_EXPRESSION_NESTING} deep")));
        }
        self.nesting += 1;
        let result = read(self);
        self.nesting -= 1;
        result
    }

    fn expected(&self, what: &str) -> IrError {
        self.err(self.tok.span, format!("expected {what}, found {}", self.tok.tok.describe()))
    }

    // Matched rather than compared with a built `Tok`: the derived `==` is an out-of-line call.
    fn is_punct(&self, c: u8) -> bool {
        matches!(self.tok.tok, Tok::Punct(p) if p == c)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.tok.tok, Tok::Word(x) if x == w)
    }

    #[inline]
    fn eat_punct(&mut self, c: u8) -> PResult<bool> {
        if self.is_punct(c) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    #[inline]
    fn eat_word(&mut self, w: &str) -> PResult<bool> {
        if self.is_word(w) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// `context` is formatted only for the error (`format_args!` where it has parts).
    fn expect_punct(&mut self, c: u8, context: impl std::fmt::Display) -> PResult<()> {
        if self.eat_punct(c)? {
            Ok(())
        } else {
            Err(self.expected(&format!("'{}'{context}", c as char)))
        }
    }

    fn expect_word(&mut self, w: &str, context: impl std::fmt::Display) -> PResult<()> {
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

    /// `metadata !N` or `metadata !{...}`, the operand of `hwreg` and `noclobber`.
    fn metadata_operand(&mut self, attribute: &str) -> PResult<MetadataRef<'a>> {
        self.expect_word("metadata", format_args!(" in '{attribute}(metadata !N)'"))?;
        match self.tok.tok {
            Tok::Meta(name) => {
                let span = self.bump()?.span;
                Ok(MetadataRef::Named(name, span))
            }
            Tok::Punct(b'!') if self.peek()?.tok == Tok::Punct(b'{') => {
                self.bump()?;
                Ok(MetadataRef::Inline(self.metadata_tuple()?))
            }
            _ => Err(self.expected(&format!("a metadata node '!N' in '{attribute}'"))),
        }
    }

    /// A metadata tuple `{...}` after its `!`: its strings when it holds nothing else.
    fn metadata_tuple(&mut self) -> PResult<MetadataNode> {
        let (lex, tok) = (self.lex.clone(), self.tok);
        self.expect_punct(b'{', "")?;
        let mut strings = Vec::new();
        while !self.is_punct(b'}') {
            let span = self.tok.span;
            match (self.tok.tok, self.peek()?.tok) {
                (Tok::Punct(b'!'), Tok::Str(raw)) => {
                    self.bump()?;
                    self.bump()?;
                    strings.push((name_string(raw), span));
                }
                _ => {
                    // Not a tuple of strings: read past it as any metadata.
                    (self.lex, self.tok) = (lex, tok);
                    self.skip_balanced()?;
                    return Ok(MetadataNode::Other);
                }
            }
            if self.eat_punct(b',')? {
                if self.is_punct(b'}') {
                    return Err(self.expected("a metadata operand after ','"));
                }
            } else if !self.is_punct(b'}') {
                return Err(self.expected("',' or '}' in the metadata tuple"));
            }
        }
        self.bump()?;
        Ok(MetadataNode::Strings(strings))
    }

    /// A metadata definition's value after `=`: kept when it is a tuple, skipped otherwise.
    fn metadata_definition(&mut self) -> PResult<MetadataNode> {
        self.eat_word("distinct")?;
        if self.is_punct(b'!') && self.peek()?.tok == Tok::Punct(b'{') {
            self.bump()?;
            return self.metadata_tuple();
        }
        self.skip_metadata_value()?;
        Ok(MetadataNode::Other)
    }

    /// The register names `reference` denotes for `attribute` at `span` (one for `hwreg`).
    fn register_names(&self, reference: &MetadataRef<'a>, attribute: &str, span: Span) -> PResult<Vec<RegisterName>> {
        let node = match reference {
            MetadataRef::Named(name, at) => match self.metadata.get(name) {
                Some(node) => node,
                // After a top-level error, nodes further down were never read: that error is the one
                // reported, not this.
                None if !self.metadata_complete => {
                    return Ok(vec![RegisterName { name: String::new(), span }]);
                }
                None => return Err(self.err(*at, format!("metadata node '!{name}' is not defined"))),
            },
            MetadataRef::Inline(node) => node,
        };
        let hwreg = attribute == "hwreg";
        match node {
            MetadataNode::Strings(names) if !hwreg || names.len() == 1 => Ok(names
                .iter()
                .map(|(name, at)| RegisterName { name: name.clone(), span: if hwreg { span } else { *at } })
                .collect()),
            _ if hwreg => {
                Err(self
                    .err(span, "'hwreg' needs a metadata tuple of one register name, such as !{!\"rax\"}".to_string()))
            }
            _ => Err(self.err(
                span,
                "'noclobber' needs a metadata tuple of register names, such as !{!\"rax\", !\"rbx\"}".to_string(),
            )),
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
}

/// What the pre-scan found of each `%name = type ...` definition: the name's token, and the lexer
/// just after `type` (the body's first token is the next one).
type TypeStart<'a> = (Lexer<'a>, Token<'a>);

/// What the pre-scan found: every global and function name with the id it will get, where each
/// identified type is defined, and the lexer just past each function body it skipped, by the offset
/// of the body's first byte after `{` (the top-level pass skips the same bodies, and need not scan
/// them again).
struct Prescan<'a> {
    symbols: NameMap<&'a str, Symbol>,
    type_starts: Vec<TypeStart<'a>>,
    body_ends: Vec<(usize, Lexer<'a>)>,
}

/// Collects every global and function name with the id it will get, and where each identified type
/// is defined, so that uses may precede definitions. Lexing errors end the scan; the main pass
/// reports them.
fn prescan<'a>(file: &'a str, text: &'a str) -> Prescan<'a> {
    let mut symbols = NameMap::default();
    let mut type_starts = Vec::new();
    let mut body_ends = Vec::new();
    // A top-level `%name` and then `=`: a type definition if `type` follows.
    let mut last_local: Option<Token<'a>> = None;
    let mut after_local_eq: Option<Token<'a>> = None;
    let mut lex = Lexer::new(file, text);
    let (mut funcs, mut globals) = (0u32, 0u32);
    let mut after_define = false;
    // Between `define` and its body's `{`: the body holds no top-level names and is skipped unread.
    let mut in_definition = false;
    let mut last_global: Option<&'a str> = None;
    while let Ok(t) = lex.next_token() {
        if let Some(name) = after_local_eq.take() {
            if t.tok == Tok::Word("type") {
                type_starts.push((lex.clone(), name));
                continue;
            }
        }
        if let Some(name) = last_local.take() {
            if t.tok == Tok::Punct(b'=') && !in_definition && !after_define {
                after_local_eq = Some(name);
                continue;
            }
        }
        match t.tok {
            Tok::Eof => break,
            Tok::Local(_) if !in_definition && !after_define => last_local = Some(t),
            Tok::Punct(b'{') if in_definition => {
                let start = lex.offset();
                lex.skip_body();
                body_ends.push((start, lex.clone()));
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
    Prescan { symbols, type_starts, body_ends }
}
