//! Types and constants.

use super::*;

impl<'a> Parser<'a> {
    /// A type that values can have (not `void`).
    pub(super) fn value_type(&mut self) -> PResult<Type> {
        self.nested_value_type(0)
    }

    /// A value type inside `depth` array types.
    pub(super) fn nested_value_type(&mut self, depth: usize) -> PResult<Type> {
        let span = self.tok.span;
        let ty = self.nested_ty(depth)?;
        if ty == Type::Void {
            return Err(self.err(span, "'void' is only allowed as a return type"));
        }
        Ok(ty)
    }

    pub(super) fn expect_type(&self, span: Span, found: &Type, expected: &Type, what: &str) -> PResult<()> {
        if found != expected {
            return Err(self.err(span, format!("{what} has type '{found}' but '{expected}' is expected")));
        }
        Ok(())
    }

    /// A type, including `void`.
    pub(super) fn ty(&mut self) -> PResult<Type> {
        self.nested_ty(0)
    }

    /// A type inside `depth` array types.
    pub(super) fn nested_ty(&mut self, depth: usize) -> PResult<Type> {
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
        if self.is_punct(b'*') || (self.is_word("addrspace") && ty != Type::Ptr) {
            return self.typed_pointer(ty);
        }
        Ok(ty)
    }

    /// Typed-pointer syntax after `pointee`: `i32*`, `i8**`, `T addrspace(0)*`, which llc-19 still
    /// reads as `ptr` (the pointee type means nothing to the code).
    fn typed_pointer(&mut self, pointee: Type) -> PResult<Type> {
        if pointee == Type::Void {
            return Err(self.err(self.tok.span, "'void*' is not a type (use 'ptr')"));
        }
        loop {
            if self.is_word("addrspace") {
                self.address_space()?;
                self.bump()?;
                if !self.is_punct(b'*') {
                    return Err(self.expected("'*' after the address space of a typed pointer"));
                }
            }
            if !self.eat_punct(b'*')? {
                return Ok(Type::Ptr);
            }
        }
    }

    /// The source text of a bracketed construct starting at `offset`, for messages.
    pub(super) fn bracketed_text(&self, offset: usize) -> &'a str {
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
    pub(super) fn int_literal(&mut self, bits: u8) -> PResult<i64> {
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

    /// A constant of type `ty`.
    pub(super) fn constant(&mut self, ty: &Type) -> PResult<Const> {
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

    pub(super) fn float_const(&self, v: f64, ty: &Type, text: &str, span: Span) -> PResult<Const> {
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

/// The integer `text` as an `iN` constant, sign-extended to 64 bits; `None` if it does not fit.
pub(super) fn int_in_width(text: &str, bits: u8) -> Option<i64> {
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
