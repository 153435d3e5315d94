//! Types and constants.

use super::*;
use crate::ir::RelativeAddress;

impl<'a> Parser<'a> {
    /// A type that values can have (not `void`).
    pub(super) fn value_type(&mut self) -> PResult<Type> {
        self.nested_value_type(0)
    }

    /// A value type inside `depth` array types.
    pub(super) fn nested_value_type(&mut self, depth: usize) -> PResult<Type> {
        let span = self.tok.span;
        let ty = self.nested_ty(depth)?;
        // Matched: the derived `==` is an out-of-line call, and every operand's type comes here.
        if matches!(ty, Type::Void) {
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

    /// Checks that `found`, the type of `what`, is a pointer of any address space.
    pub(super) fn expect_pointer(&self, span: Span, found: &Type, what: &str) -> PResult<()> {
        if !found.is_ptr() {
            return Err(self.err(span, format!("{what} has type '{found}' but a pointer is expected")));
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
                    "half" => Type::Half,
                    "i128" => Type::I128,
                    "float" => Type::Float,
                    "double" => Type::Double,
                    "ptr" => Type::PTR,
                    "token" => Type::Token,
                    // LLVM legalises every width; those up to 64 bits live in the next larger register.
                    _ if w.starts_with('i') && w[1..].parse::<u8>().is_ok_and(|n| (2..64).contains(&n)) => {
                        Type::Int(w[1..].parse().unwrap_or(64))
                    }
                    _ if w.starts_with('i') && is_numeric(&w[1..]) => {
                        return Err(self.err(t.span, format!("unsupported type '{w}'")));
                    }
                    "bfloat" | "fp128" | "x86_fp80" | "ppc_fp128" | "x86_amx" | "x86_mmx" | "label" | "metadata"
                    | "opaque" | "target" => {
                        return Err(self.err(t.span, format!("unsupported type '{w}'")));
                    }
                    _ => return Err(self.expected("a type")),
                };
                self.bump()?;
                if matches!(ty, Type::Ptr(0)) && self.is_word("addrspace") {
                    let n = self.pointer_address_space()?;
                    self.bump()?;
                    Type::Ptr(n)
                } else {
                    ty
                }
            }
            Tok::Punct(b'[') => {
                if depth == MAX_TYPE_NESTING {
                    return Err(self.err(t.span, format!("array types nested more than {MAX_TYPE_NESTING} deep")));
                }
                self.bump()?;
                let n = self.unsigned("an array length")?;
                self.expect_word("x", " in an array type")?;
                let espan = self.tok.span;
                let elem = self.nested_value_type(depth + 1)?;
                if !elem.is_sized() {
                    return Err(self.err(espan, format!("array element of unsized type '{elem}'")));
                }
                self.expect_punct(b']', " to close the array type")?;
                Type::Array(n, Box::new(elem))
            }
            Tok::Punct(b'{') => self.struct_body(depth, None, false)?,
            Tok::Punct(b'<') if self.peek()?.tok == Tok::Punct(b'{') => {
                self.bump()?;
                let ty = self.struct_body(depth, None, true)?;
                self.expect_punct(b'>', " to close the packed struct type")?;
                ty
            }
            Tok::Punct(b'<') => self.vector_type(depth)?,
            Tok::Local(name) => {
                self.bump()?;
                self.named_type(name, t.span, depth)?
            }
            _ => return Err(self.expected("a type")),
        };
        if self.is_punct(b'*') || (self.is_word("addrspace") && !ty.is_ptr()) {
            if ty.is_ptr() {
                return Err(self.err(self.tok.span, "'ptr*' is not a type (use 'ptr')"));
            }
            let pointer = self.typed_pointer(ty)?;
            // `i8* (i8*)*`: a typed pointer may be a function type's result.
            if self.is_punct(b'(') && self.function_type_pointer_follows()? {
                return self.function_type_pointer(pointer, depth);
            }
            return Ok(pointer);
        }
        if self.is_punct(b'(') && self.function_type_pointer_follows()? {
            return self.function_type_pointer(ty, depth);
        }
        Ok(ty)
    }

    /// `<N x T>` from its `<`: a fixed-width vector of scalar lanes. Scalable vectors
    /// (`<vscale x N x T>`) are refused: neither target's baseline (SSE2, NEON) has them.
    fn vector_type(&mut self, depth: usize) -> PResult<Type> {
        let open = self.tok;
        if depth >= MAX_TYPE_NESTING {
            return Err(self.err(open.span, format!("vector types nested more than {MAX_TYPE_NESTING} deep")));
        }
        self.bump()?;
        if self.is_word("vscale") {
            let text = self.bracketed_text(open.offset);
            return Err(self.err(
                open.span,
                format!(
                    "unsupported scalable vector type '{text}': only fixed-width vectors are supported (x86-64 and \
                     AArch64 NEON have no scalable registers)"
                ),
            ));
        }
        let nspan = self.tok.span;
        let n = self.unsigned("a vector length")?;
        let n = u32::try_from(n).ok().filter(|&n| n > 0 && u64::from(n) <= MAX_VECTOR_LANES).ok_or_else(|| {
            self.err(
                nspan,
                format!(
                    "vector length {n} is not 1 to {MAX_VECTOR_LANES}: patchmap lowers a vector lane by lane, \
                         and longer ones would take too long to compile (keep such data in memory)"
                ),
            )
        })?;
        self.expect_word("x", " in a vector type")?;
        let espan = self.tok.span;
        let elem = self.nested_value_type(depth + 1)?;
        if !elem.is_scalar() {
            return Err(self.err(
                espan,
                format!("vector element of type '{elem}': lanes are integers, floating-point values or pointers"),
            ));
        }
        let vector = Type::Vector(n, Box::new(elem));
        if vector.alloc_size() > MAX_VECTOR_BYTES {
            return Err(self.err(
                nspan,
                format!(
                    "vector type '{vector}' takes {} bytes, more than {MAX_VECTOR_BYTES}: a stack map records a \
                     vector's size in 16 bits (keep such data in memory)",
                    vector.alloc_size()
                ),
            ));
        }
        self.expect_punct(b'>', " to close the vector type")?;
        Ok(vector)
    }

    /// Whether the `(` at hand opens the parameters of a function type that a `*` (or `addrspace`)
    /// makes a pointer type, `void (i64)*`, rather than a call's or declaration's parameters.
    fn function_type_pointer_follows(&mut self) -> PResult<bool> {
        let (lex, tok) = (self.lex.clone(), self.tok);
        let skipped = self.skip_balanced();
        let follows = self.is_punct(b'*') || self.is_word("addrspace");
        (self.lex, self.tok) = (lex, tok);
        skipped.map(|()| follows)
    }

    /// A pointer to the function type returning `ret` whose `(` is at hand: `ptr`, as llc-19 reads
    /// typed pointers. The parameter types are read and checked, then forgotten.
    fn function_type_pointer(&mut self, ret: Type, depth: usize) -> PResult<Type> {
        if depth >= MAX_TYPE_NESTING {
            return Err(self.err(self.tok.span, format!("function types nested more than {MAX_TYPE_NESTING} deep")));
        }
        if ret == Type::Token || ret.is_aggregate() && !ret.is_sized() {
            return Err(self.err(self.tok.span, format!("invalid function return type '{ret}'")));
        }
        self.expect_punct(b'(', "")?;
        if !self.is_punct(b')') {
            loop {
                if self.tok.tok == Tok::Ellipsis {
                    self.bump()?;
                    break;
                }
                self.nested_value_type(depth + 1)?;
                if !self.eat_punct(b',')? {
                    break;
                }
            }
        }
        self.expect_punct(b')', " to close the function type's parameters")?;
        // Any pointee but `void` will do: only the pointer is kept.
        let pointer = self.typed_pointer(Type::I8)?;
        if self.is_punct(b'(') && self.function_type_pointer_follows()? {
            return self.function_type_pointer(pointer, depth + 1);
        }
        Ok(pointer)
    }

    /// Typed-pointer syntax after `pointee`: `i32*`, `i8**`, `T addrspace(0)*`, which llc-19 still
    /// reads as `ptr` (the pointee type means nothing to the code).
    fn typed_pointer(&mut self, pointee: Type) -> PResult<Type> {
        if pointee == Type::Void {
            return Err(self.err(self.tok.span, "'void*' is not a type (use 'ptr')"));
        }
        let mut ty = pointee;
        loop {
            let mut space = 0;
            if self.is_word("addrspace") {
                space = self.pointer_address_space()?;
                self.bump()?;
                if !self.is_punct(b'*') {
                    return Err(self.expected("'*' after the address space of a typed pointer"));
                }
            }
            if !self.eat_punct(b'*')? {
                return Ok(ty);
            }
            ty = Type::Ptr(space);
        }
    }

    /// `{ T, ... }` from its `{` (after `<` when packed), fields at `depth + 1`.
    pub(super) fn struct_body(&mut self, depth: usize, name: Option<String>, packed: bool) -> PResult<Type> {
        let open = self.tok.span;
        if depth >= MAX_TYPE_NESTING {
            return Err(self.err(open, format!("aggregate types nested more than {MAX_TYPE_NESTING} deep")));
        }
        self.expect_punct(b'{', "")?;
        let mut fields = Vec::new();
        if !self.is_punct(b'}') {
            loop {
                let fspan = self.tok.span;
                let field = self.nested_value_type(depth + 1)?;
                if !field.is_sized() {
                    return Err(self.err(fspan, format!("struct field of unsized type '{field}'")));
                }
                fields.push(field);
                if !self.eat_punct(b',')? {
                    break;
                }
            }
        }
        self.expect_punct(b'}', " to close the struct type")?;
        Ok(Type::Struct(Arc::new(StructType::new(name, packed, Some(fields)))))
    }

    /// The identified type `%name` used `depth` levels deep, resolving its definition on first use.
    pub(super) fn named_type(&mut self, name: &'a str, span: Span, depth: usize) -> PResult<Type> {
        let ty = match self.types.get(name) {
            Some(ty) => ty.clone(),
            None => match self.type_defs.get(name).copied() {
                Some(TypeDef::Pending(index)) => self.resolve_type(name, index, depth)?,
                Some(TypeDef::InProgress) => {
                    return Err(self.err(span, format!("recursive type '%{name}' contains itself")));
                }
                None => return Err(self.err(span, format!("use of undefined type '%{name}'"))),
            },
        };
        if depth + ty.depth() > MAX_TYPE_NESTING {
            return Err(self.err(span, format!("aggregate types nested more than {MAX_TYPE_NESTING} deep")));
        }
        Ok(ty)
    }

    /// Reads the definition `type_starts[index]` of `%name` (first used `depth` deep) from its own
    /// place in the text, then carries on where the use was.
    fn resolve_type(&mut self, name: &'a str, index: usize, depth: usize) -> PResult<Type> {
        self.type_defs.insert(name, TypeDef::InProgress);
        let (lex, tok) = self.type_starts[index].clone();
        let saved = (std::mem::replace(&mut self.lex, lex), std::mem::replace(&mut self.tok, tok));
        let body = self.type_definition_body(name, depth);
        (self.lex, self.tok) = saved;
        let ty = body?;
        self.type_defs.remove(name);
        Arc::make_mut(&mut self.types).insert(name, ty.clone());
        Ok(ty)
    }

    /// What follows `%name = type`: `opaque`, a struct body, or another type (an alias).
    pub(super) fn type_definition_body(&mut self, name: &str, depth: usize) -> PResult<Type> {
        let named = Some(name_string(name));
        if self.eat_word("opaque")? {
            return Ok(Type::Struct(Arc::new(StructType::new(named, false, None))));
        }
        if self.is_punct(b'{') {
            return self.struct_body(depth, named, false);
        }
        if self.is_punct(b'<') && self.peek()?.tok == Tok::Punct(b'{') {
            self.bump()?;
            let ty = self.struct_body(depth, named, true)?;
            self.expect_punct(b'>', " to close the packed struct type")?;
            return Ok(ty);
        }
        self.nested_value_type(depth)
    }

    /// A byte offset from a symbol in an address constant: within ±2 GiB, as within any object.
    fn address_offset(&self, span: Span, offset: i64) -> PResult<i32> {
        i32::try_from(offset)
            .map_err(|_| self.err(span, format!("address constant offset {offset} is beyond 2 GiB of its symbol")))
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

    /// An integer literal of width `bits`, sign-extended; of an `i128`, the low 64 bits (where the
    /// literal is an index, a count or an address, which have no more).
    pub(super) fn int_literal(&mut self, bits: u8) -> PResult<i64> {
        let span = self.tok.span;
        let v = match self.tok.tok {
            Tok::Int(t) => {
                int_in_width(t, bits).ok_or_else(|| self.err(span, format!("malformed integer constant '{t}'")))? as i64
            }
            Tok::Word(w) if hex_int_in_width(w, bits).is_some() => hex_int_in_width(w, bits).unwrap_or(0) as i64,
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
                Type::Int(bits) => Const::int(
                    int_in_width(t, *bits)
                        .ok_or_else(|| self.err(span, format!("malformed integer constant '{t}'")))?,
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
                if let (Some(half), Type::Half) = (digits.strip_prefix('H'), ty) {
                    // LLVM's `0xH3C00`: the half's own 16 bits.
                    let bits =
                        (half.len() == 4).then(|| u16::from_str_radix(half, 16).ok()).flatten().ok_or_else(|| {
                            self.err(span, format!("malformed half constant '{t}': 0xH takes 4 hex digits"))
                        })?;
                    return self.bump().map(|_| Const::Float(crate::ir::half::to_f64(bits)));
                }
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
            Tok::Word(w) if hex_int_in_width(w, 128).is_some() => match ty {
                Type::Int(bits) => Const::int(hex_int_in_width(w, *bits).unwrap_or(0)),
                _ => return Err(self.err(span, format!("integer constant '{w}' used where '{ty}' is expected"))),
            },
            Tok::Word(w @ ("true" | "false")) => {
                if *ty != Type::I1 {
                    return Err(self.err(span, format!("'{w}' is an i1 constant but '{ty}' is expected")));
                }
                Const::Int(if w == "true" { -1 } else { 0 })
            }
            Tok::Word("null") => {
                if !ty.is_ptr() {
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
                self.expect_type(tspan, &to, ty, "the result of 'inttoptr'")?;
                if !self.is_punct(b')') {
                    return Err(self.expected("')' to close 'inttoptr'"));
                }
                if !ty.is_ptr() {
                    return Err(self.err(span, format!("'inttoptr' constant is a pointer but '{ty}' is expected")));
                }
                Const::IntToPtr(v)
            }
            Tok::Word("sub" | "trunc") if matches!(ty, Type::Int(32 | 64)) && self.label_difference_ahead() => {
                self.label_difference(ty)?
            }
            Tok::Word("ptrtoint" | "add" | "sub" | "trunc" | "zext" | "sext") if ty.is_int() => {
                let bits = ty.int_bits().unwrap_or(64);
                if bits > 64 {
                    // Folded in 64 bits below; clang folds its i128 constants itself.
                    return Err(self.err(span, format!("unsupported constant expression of type '{ty}'")));
                }
                let folded = self.nested(span, "constant expressions", Self::int_expression)?;
                match folded {
                    // An address as an integer: the value of a pointer, truncated where narrower
                    // (the verifier allows those in instructions only).
                    Folded { plus: Some(symbol), minus: None, value } if bits >= 8 => {
                        Const::Address(symbol, self.address_offset(span, value)?)
                    }
                    Folded { plus: Some(symbol), minus: None, .. } => {
                        return Err(self.err(
                            span,
                            format!(
                                "unsupported constant expression: the address of '{}' as an i{bits}",
                                self.symbol_name(symbol)
                            ),
                        ))
                    }
                    // A relative reference: 32 bits in LLVM's relative lookup tables and vtables.
                    Folded { plus: Some(target), minus: Some(base), value } if bits >= 32 => {
                        Const::Relative(Box::new(RelativeAddress {
                            target,
                            base,
                            offset: self.address_offset(span, value)?,
                        }))
                    }
                    Folded { plus: Some(target), minus: Some(base), .. } => {
                        return Err(self.err(
                            span,
                            format!(
                                "unsupported constant expression: the difference of the addresses of '{}' and '{}' \
                                 as an i{bits} (relative references are i32 or i64)",
                                self.symbol_name(target),
                                self.symbol_name(base)
                            ),
                        ))
                    }
                    Folded { plus: None, minus: Some(base), .. } => {
                        return Err(self.err(
                            span,
                            format!(
                                "unsupported constant expression: the negated address of '{}'",
                                self.symbol_name(base)
                            ),
                        ))
                    }
                    Folded { plus: None, minus: None, value } => {
                        let shift = 64 - u32::from(bits);
                        Const::Int((value << shift) >> shift)
                    }
                }
            }
            Tok::Word(w @ ("bitcast" | "addrspacecast")) if ty.is_ptr() => {
                self.nested(span, "constant expressions", |p| p.pointer_cast_constant(w, ty))?
            }
            Tok::Word("blockaddress") if ty.is_ptr() => Const::BlockAddress(Box::new(self.block_address()?)),
            Tok::Word("getelementptr") => {
                if *ty != Type::PTR {
                    return Err(self.err(span, format!("'getelementptr' constant is a pointer but '{ty}' is expected")));
                }
                self.nested(span, "constant expressions", Self::gep_constant)?
            }
            Tok::Word(
                w @ ("bitcast"
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
            Tok::Punct(b'<') if ty.is_vector() => return self.vector_constant(ty),
            Tok::Word("splat") if ty.is_vector() => {
                // LLVM 19's `splat (T v)`: every lane `v`.
                self.bump()?;
                self.expect_punct(b'(', " after 'splat'")?;
                let lane = ty.lane_type().clone();
                let espan = self.tok.span;
                let ety = self.value_type()?;
                self.expect_type(espan, &ety, &lane, "the 'splat' element")?;
                let item = self.member_constant(&lane)?;
                if !self.is_punct(b')') {
                    return Err(self.expected("')' to close 'splat'"));
                }
                let n = ty.lanes().unwrap_or(1) as usize;
                Const::Aggregate(Box::new(vec![item; n]))
            }
            Tok::Punct(b'[' | b'{' | b'<') | Tok::CStr(_) if ty.is_aggregate() => return self.aggregate_constant(ty),
            Tok::Punct(b'[' | b'{' | b'<') | Tok::CStr(_) => {
                return Err(self.err(span, format!("aggregate constant used where '{ty}' is expected")));
            }
            _ => return Err(self.expected(&format!("a value of type '{ty}'"))),
        };
        if *ty == Type::Void {
            return Err(self.err(span, "a value cannot have type 'void'"));
        }
        self.bump()?;
        Ok(c)
    }

    /// `blockaddress(@f, %bb)` from `blockaddress` to its `)`, which stays current.
    fn block_address(&mut self) -> PResult<crate::ir::BlockAddress> {
        self.bump()?;
        self.expect_punct(b'(', " after 'blockaddress'")?;
        let fspan = self.tok.span;
        let Tok::Global(name) = self.tok.tok else { return Err(self.expected("a function after 'blockaddress('")) };
        let Symbol::Func(function) = self.address_of(name, fspan)? else {
            return Err(self.err(fspan, format!("'blockaddress' of '@{name}', which is not a function")));
        };
        self.bump()?;
        self.expect_punct(b',', " after the function of 'blockaddress'")?;
        let Tok::Local(block) = self.tok.tok else { return Err(self.expected("a block label")) };
        self.bump()?;
        if !self.is_punct(b')') {
            return Err(self.expected("')' to close 'blockaddress'"));
        }
        Ok(crate::ir::BlockAddress { function, block: name_string(block) })
    }

    /// Whether the constant expression ahead is a distance between two labels (its first
    /// `ptrtoint` takes a `blockaddress`).
    fn label_difference_ahead(&self) -> bool {
        let mut lex = self.lex.clone();
        for _ in 0..12 {
            match lex.next_token().map(|t| t.tok) {
                Ok(Tok::Word("ptrtoint")) => {
                    return matches!(lex.next_token().map(|t| t.tok), Ok(Tok::Punct(b'(')))
                        && matches!(lex.next_token().map(|t| t.tok), Ok(Tok::Word("ptr")))
                        && matches!(lex.next_token().map(|t| t.tok), Ok(Tok::Word("blockaddress")));
                }
                Ok(Tok::Word(_) | Tok::Punct(b'(')) => {}
                _ => return false,
            }
        }
        false
    }

    /// `[trunc (i64] sub (i64 ptrtoint (ptr blockaddress(@f, %a) to i64), i64 ptrtoint (ptr
    /// blockaddress(@f, %b) to i64))[ to i32)]`: the distance from one label to another, as
    /// computed goto with offset tables writes it; to its last `)`, which stays current.
    fn label_difference(&mut self, ty: &Type) -> PResult<Const> {
        let span = self.tok.span;
        let truncated = self.eat_word("trunc")?;
        if truncated {
            self.expect_punct(b'(', " after 'trunc'")?;
            self.expect_word("i64", " in 'trunc'")?;
        }
        self.expect_word("sub", " between two labels")?;
        self.expect_punct(b'(', " after 'sub'")?;
        let label = |p: &mut Self| -> PResult<crate::ir::BlockAddress> {
            p.expect_word("i64", " before 'ptrtoint'")?;
            p.expect_word("ptrtoint", " of a label")?;
            p.expect_punct(b'(', " after 'ptrtoint'")?;
            p.expect_word("ptr", " in 'ptrtoint'")?;
            if !p.is_word("blockaddress") {
                return Err(p.expected("'blockaddress' (a distance between two labels)"));
            }
            let b = p.block_address()?;
            p.bump()?;
            p.expect_word("to", " in 'ptrtoint'")?;
            p.expect_word("i64", " in 'ptrtoint'")?;
            if !p.is_punct(b')') {
                return Err(p.expected("')' to close 'ptrtoint'"));
            }
            p.bump()?;
            Ok(b)
        };
        let target = label(self)?;
        self.expect_punct(b',', " between the operands of 'sub'")?;
        let base = label(self)?;
        if !self.is_punct(b')') {
            return Err(self.expected("')' to close 'sub'"));
        }
        if truncated {
            self.bump()?;
            self.expect_word("to", " in 'trunc'")?;
            let tspan = self.tok.span;
            let to = self.value_type()?;
            self.expect_type(tspan, &to, ty, "the result of 'trunc'")?;
            if !self.is_punct(b')') {
                return Err(self.expected("')' to close 'trunc'"));
            }
        } else if *ty != Type::I64 {
            return Err(self.err(span, format!("a distance between labels is an i64, not '{ty}'")));
        }
        Ok(Const::LabelDifference(Box::new((target, base))))
    }

    /// An integer constant expression from its opcode to its `)`, which stays current: `ptrtoint`
    /// of a pointer constant, `add`/`sub` of addresses and integers, `trunc`/`zext`/`sext` of
    /// integers, and `trunc` of a difference of addresses (a relative reference).
    fn int_expression(&mut self) -> PResult<Folded> {
        let Tok::Word(op) = self.tok.tok else { return Err(self.expected("a constant expression")) };
        let span = self.tok.span;
        self.bump()?;
        self.flags(&["nuw", "nsw"])?;
        self.expect_punct(b'(', format_args!(" after '{op}'"))?;
        let result = match op {
            "ptrtoint" => {
                let tspan = self.tok.span;
                let from = self.value_type()?;
                self.expect_type(tspan, &from, &Type::PTR, "the operand of 'ptrtoint'")?;
                let pointer = self.member_constant(&Type::PTR)?;
                self.expect_word("to", " in 'ptrtoint'")?;
                let to_span = self.tok.span;
                let to = self.value_type()?;
                if !to.is_int() {
                    return Err(self.err(to_span, format!("'ptrtoint' produces an integer, not '{to}'")));
                }
                match pointer {
                    Const::Address(symbol, offset) => Folded { plus: Some(symbol), minus: None, value: offset.into() },
                    Const::IntToPtr(v) => Folded::number(v),
                    Const::Zero => Folded::number(0),
                    _ => return Err(self.err(span, "unsupported operand of a 'ptrtoint' constant")),
                }
            }
            "add" | "sub" => {
                let (_, bits) = self.int_operand_type()?;
                let a = self.int_operand(bits)?;
                self.expect_punct(b',', format_args!(" between the operands of '{op}'"))?;
                self.int_operand_type()?;
                let b = self.int_operand(bits)?;
                let b = if op == "sub" {
                    Folded { plus: b.minus, minus: b.plus, value: b.value.wrapping_neg() }
                } else {
                    b
                };
                let (plus, minus) = match (a.plus.xor(b.plus), a.minus.xor(b.minus)) {
                    _ if a.plus.is_some() && b.plus.is_some() || a.minus.is_some() && b.minus.is_some() => {
                        return Err(self.err(span, format!("unsupported constant expression '{op}' of addresses")));
                    }
                    // The same object's addresses: their distance is a number.
                    (Some(x), Some(y)) if x == y => (None, None),
                    pair => pair,
                };
                Folded { plus, minus, value: a.value.wrapping_add(b.value) }
            }
            _ => {
                let (_, from_bits) = self.int_operand_type()?;
                let folded = self.int_operand(from_bits)?;
                self.expect_word("to", format_args!(" in '{op}'"))?;
                let (to_span, to_bits) = self.int_operand_type()?;
                let widening = op != "trunc";
                if widening != (to_bits > from_bits) || to_bits == from_bits {
                    return Err(self.err(to_span, format!("invalid '{op}' from i{from_bits} to i{to_bits}")));
                }
                match folded {
                    // A relative reference fits in 32 bits: the linker checks it.
                    Folded { plus: Some(_), minus: Some(_), .. } if op == "trunc" && to_bits >= 32 => folded,
                    Folded { plus: Some(target), minus: Some(base), .. } => {
                        return Err(self.err(
                            span,
                            format!(
                                "unsupported constant expression: '{op}' of the difference of the addresses of '{}' \
                                 and '{}' to i{to_bits} (relative references are i32 or i64)",
                                self.symbol_name(target),
                                self.symbol_name(base)
                            ),
                        ));
                    }
                    Folded { plus: Some(symbol), .. } | Folded { minus: Some(symbol), .. }
                        if op == "trunc" || from_bits < 64 || folded.minus.is_some() =>
                    {
                        return Err(self.err(
                            span,
                            format!(
                                "unsupported constant expression: '{op}' of the address of '{}' to i{to_bits}",
                                self.symbol_name(symbol)
                            ),
                        ));
                    }
                    Folded { plus, minus, value } => {
                        let unsigned = (value as u64) & (u64::MAX >> (64 - u32::from(from_bits)));
                        let shift = 64 - u32::from(from_bits);
                        let value = if op == "sext" { (value << shift) >> shift } else { unsigned as i64 };
                        Folded { plus, minus, value }
                    }
                }
            }
        };
        if !self.is_punct(b')') {
            return Err(self.expected(&format!("')' to close '{op}'")));
        }
        Ok(result)
    }

    /// The `iN` before an operand of an integer constant expression, with its position.
    fn int_operand_type(&mut self) -> PResult<(Span, u8)> {
        let span = self.tok.span;
        match self.value_type()? {
            Type::Int(bits @ ..=64) => Ok((span, bits)),
            other => Err(self.err(span, format!("integer constant expression operand of type '{other}'"))),
        }
    }

    /// An `iN` operand of an integer constant expression: a literal or a nested expression.
    fn int_operand(&mut self, bits: u8) -> PResult<Folded> {
        match self.tok.tok {
            Tok::Word("ptrtoint" | "add" | "sub" | "trunc" | "zext" | "sext") => {
                let folded = self.nested(self.tok.span, "constant expressions", Self::int_expression)?;
                self.bump()?;
                Ok(folded)
            }
            _ => Ok(Folded::number(self.int_literal(bits)?)),
        }
    }

    /// `@name` of a global or function, for messages.
    fn symbol_name(&self, symbol: Symbol) -> String {
        let name = self.symbols.iter().find(|(_, s)| **s == symbol).map_or("?", |(n, _)| *n);
        format!("@{name}")
    }

    /// A member of an aggregate constant, of type `ty`: also `@name` for a pointer.
    fn member_constant(&mut self, ty: &Type) -> PResult<Const> {
        if let Tok::Global(name) = self.tok.tok {
            let span = self.tok.span;
            let symbol = self.address_of(name, span)?;
            self.expect_type(span, &Type::PTR, ty, &format!("'@{name}'"))?;
            self.bump()?;
            return Ok(Const::Address(symbol, 0));
        }
        self.constant(ty)
    }

    /// The global or function `@name` as an address constant's target.
    pub(super) fn address_of(&self, name: &str, span: Span) -> PResult<Symbol> {
        self.symbols.get(name).copied().ok_or_else(|| self.err(span, format!("use of undefined value '@{name}'")))
    }

    /// The typed members of a `{ T v, ... }` or `<{ ... }>` constant of struct type `ty` (`s`), in
    /// order, each read by `member` at its field's type (an initialiser or an operand constant).
    pub(super) fn struct_members<T>(
        &mut self,
        span: Span,
        ty: &Type,
        s: &StructType,
        mut member: impl FnMut(&mut Self, &Type) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let packed = self.eat_punct(b'<')?;
        if packed != s.packed {
            let kind = if s.packed { "packed" } else { "non-packed" };
            return Err(self.err(span, format!("struct constant does not match the {kind} type '{ty}'")));
        }
        self.expect_punct(b'{', "")?;
        let fields = s.field_types();
        let mut items = Vec::with_capacity(fields.len());
        if !self.is_punct(b'}') {
            loop {
                let fspan = self.tok.span;
                let fty = self.ty()?;
                let Some(expected) = fields.get(items.len()) else {
                    return Err(self.err(fspan, format!("too many fields in a constant of type '{ty}'")));
                };
                self.expect_type(fspan, &fty, expected, "the struct field")?;
                items.push(member(self, expected)?);
                if !self.eat_punct(b',')? {
                    break;
                }
            }
        }
        self.expect_punct(b'}', " to close the struct constant")?;
        if packed {
            self.expect_punct(b'>', " to close the packed struct constant")?;
        }
        if items.len() != fields.len() {
            return Err(self.err(
                span,
                format!("struct constant has {} fields, expected {} for '{ty}'", items.len(), fields.len()),
            ));
        }
        Ok(items)
    }

    /// `<T v, ...>` of the vector type `ty`: one constant per lane.
    fn vector_constant(&mut self, ty: &Type) -> PResult<Const> {
        let span = self.tok.span;
        let (n, lane) = (ty.lanes().unwrap_or(0), ty.lane_type().clone());
        self.expect_punct(b'<', "")?;
        let mut items = Vec::new();
        loop {
            let espan = self.tok.span;
            let ety = self.ty()?;
            self.expect_type(espan, &ety, &lane, "the vector element")?;
            items.push(self.member_constant(&lane)?);
            if !self.eat_punct(b',')? {
                break;
            }
        }
        self.expect_punct(b'>', " to close the vector constant")?;
        if items.len() as u64 != u64::from(n) {
            return Err(
                self.err(span, format!("vector constant has {} elements, expected {n} for '{ty}'", items.len()))
            );
        }
        Ok(Const::Aggregate(Box::new(items)))
    }

    /// `{ T v, ... }`, `<{ ... }>`, `[T v, ...]` or `c"..."` of the aggregate type `ty`.
    fn aggregate_constant(&mut self, ty: &Type) -> PResult<Const> {
        let span = self.tok.span;
        match (self.tok.tok, ty) {
            (Tok::CStr(raw), Type::Array(n, elem)) if **elem == Type::I8 => {
                let bytes = unescape(raw);
                if bytes.len() as u64 != *n {
                    return Err(
                        self.err(span, format!("string constant has {} bytes, expected {n} for '{ty}'", bytes.len()))
                    );
                }
                let items = bytes.iter().map(|&b| Const::Int(b as i8 as i64)).collect();
                self.bump()?;
                Ok(Const::Aggregate(Box::new(items)))
            }
            (Tok::Punct(b'['), Type::Array(n, elem)) => {
                self.bump()?;
                let mut items = Vec::new();
                if !self.is_punct(b']') {
                    loop {
                        let espan = self.tok.span;
                        let ety = self.ty()?;
                        self.expect_type(espan, &ety, elem, "the array element")?;
                        items.push(self.member_constant(elem)?);
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
                Ok(Const::Aggregate(Box::new(items)))
            }
            (Tok::Punct(b'{' | b'<'), Type::Struct(s)) => {
                let items = self.struct_members(span, ty, s, |p, field| p.member_constant(field))?;
                Ok(Const::Aggregate(Box::new(items)))
            }
            _ => Err(self.expected(&format!("a constant of type '{ty}'"))),
        }
    }

    /// `bitcast (T C to U)` or `addrspacecast (...)` of a pointer constant to a pointer of type `ty`,
    /// from its opcode to its `)`, which stays current: the same address, as LLVM's tests write
    /// `bitcast (void ()* @f to i8*)` (typed pointers, all `ptr` now).
    fn pointer_cast_constant(&mut self, op: &str, ty: &Type) -> PResult<Const> {
        self.bump()?;
        self.expect_punct(b'(', format_args!(" after '{op}'"))?;
        let fspan = self.tok.span;
        let from = self.value_type()?;
        self.expect_pointer(fspan, &from, &format!("the operand of '{op}'"))?;
        let pointer = self.member_constant(&from)?;
        self.expect_word("to", format_args!(" in '{op}'"))?;
        let tspan = self.tok.span;
        let to = self.value_type()?;
        self.expect_type(tspan, &to, ty, &format!("the result of '{op}'"))?;
        if op == "bitcast" && from != to {
            return Err(self.err(tspan, format!("'bitcast' cannot change the address space ('{from}' to '{to}')")));
        }
        if !self.is_punct(b')') {
            return Err(self.expected(&format!("')' to close '{op}'")));
        }
        Ok(pointer)
    }

    /// `getelementptr [inbounds] (T, ptr BASE, idx...)` over a global, a function or `null`, with
    /// constant indices: folded to an address and a byte offset.
    fn gep_constant(&mut self) -> PResult<Const> {
        let span = self.tok.span;
        self.bump()?;
        loop {
            match self.tok.tok {
                Tok::Word("inbounds" | "nuw" | "nusw") => {
                    self.bump()?;
                }
                // `inrange(START, END)`: where loads through the address may go (a vtable's
                // bounds), a hint for optimisers; the address is the same without it.
                Tok::Word("inrange") => {
                    self.bump()?;
                    self.expect_punct(b'(', " after 'inrange'")?;
                    let start = self.int_literal(64)?;
                    self.expect_punct(b',', " between the bounds of 'inrange'")?;
                    let end = self.int_literal(64)?;
                    if start > end {
                        return Err(self.err(span, format!("'inrange({start}, {end})' has its bounds reversed")));
                    }
                    self.expect_punct(b')', " to close 'inrange'")?;
                }
                _ => break,
            }
        }
        self.expect_punct(b'(', " after 'getelementptr'")?;
        let sspan = self.tok.span;
        let source = self.value_type()?;
        if !source.is_sized() {
            return Err(self.err(sspan, format!("'getelementptr' over unsized type '{source}'")));
        }
        self.expect_punct(b',', " after the source element type")?;
        let bspan = self.tok.span;
        let bty = self.value_type()?;
        self.expect_type(bspan, &bty, &Type::PTR, "the base of 'getelementptr'")?;
        let base = self.member_constant(&Type::PTR)?;
        let mut offset: i64 = 0;
        let mut current = &source;
        let mut first = true;
        while self.eat_punct(b',')? {
            let ispan = self.tok.span;
            let ity = self.value_type()?;
            let Type::Int(bits) = ity else {
                return Err(self.err(ispan, format!("'getelementptr' index must be an integer, found '{ity}'")));
            };
            let ispan = self.tok.span;
            let index = self.int_literal(bits)?;
            let step = if first {
                first = false;
                Some(index.wrapping_mul(current.alloc_size() as i64))
            } else {
                current.gep_step(index).map(|(member, step)| {
                    current = member;
                    step
                })
            };
            let Some(step) = step else {
                return Err(self.err(ispan, format!("index {index} is out of range for type '{current}'")));
            };
            offset = offset.wrapping_add(step);
        }
        if !self.is_punct(b')') {
            return Err(self.expected("')' to close 'getelementptr'"));
        }
        Ok(match base {
            Const::Address(symbol, base) => {
                Const::Address(symbol, self.address_offset(span, i64::from(base).wrapping_add(offset))?)
            }
            Const::Zero => Const::IntToPtr(offset),
            Const::IntToPtr(v) => Const::IntToPtr(v.wrapping_add(offset)),
            _ => return Err(self.err(span, "unsupported base of a 'getelementptr' constant")),
        })
    }

    pub(super) fn float_const(&self, v: f64, ty: &Type, text: &str, span: Span) -> PResult<Const> {
        match ty {
            Type::Double => Ok(Const::Float(v)),
            Type::Half => {
                match crate::ir::half::exact_bits(v) {
                    Some(_) => Ok(Const::Float(v)),
                    None => Err(self
                        .err(span, format!("floating-point constant '{text}' is not exactly representable as 'half'"))),
                }
            }
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

/// A decimal integer literal as LLVM's parser takes it for `iN`: any number of digits, reduced
/// modulo 2^N (`i32 4294967296` is 0, `i8 -129` is 127), sign-extended to 64 bits; `None` if
/// `text` is not a literal.
pub(super) fn int_in_width(text: &str, bits: u8) -> Option<i128> {
    let (neg, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Arithmetic modulo 2^128 keeps the low 128 bits exact, and N is at most 128.
    let magnitude = digits.bytes().fold(0u128, |v, d| v.wrapping_mul(10).wrapping_add(u128::from(d - b'0')));
    Some(sign_extend(if neg { magnitude.wrapping_neg() } else { magnitude }, bits))
}

/// An `s0x...` or `u0x...` literal (LLVM's hexadecimal integers) as an `iN`, sign-extended to 128
/// bits; `None` if `word` is not one. As LLVM reads them, the digits make a number of as many bits
/// as its highest set bit needs, signed for `s0x` (so `s0xF` and `s0x0F` are -1) and unsigned for
/// `u0x`, then extended or truncated to N bits.
pub(super) fn hex_int_in_width(word: &str, bits: u8) -> Option<i128> {
    let signed = match word.get(..3)? {
        "s0x" => true,
        "u0x" => false,
        _ => return None,
    };
    let digits = &word[3..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    let low = digits.bytes().fold(0u128, |v, d| (v << 4) | u128::from((d as char).to_digit(16).unwrap_or(0)));
    let leading = digits.bytes().next().and_then(|d| (d as char).to_digit(16)).unwrap_or(0);
    let active = (digits.len().saturating_sub(1) * 4) as u64 + u64::from(32 - leading.leading_zeros());
    // A signed literal's highest set bit is its sign: below 128 bits, it extends upwards.
    let value = if signed && (1..128).contains(&active) { low | (u128::MAX << active) } else { low };
    Some(sign_extend(value, bits))
}

/// The low `bits` of `v`, sign-extended to 128 bits (as constants are kept, see [`Const::int`]).
fn sign_extend(v: u128, bits: u8) -> i128 {
    let shift = 128 - u32::from(bits.clamp(1, 128));
    ((v << shift) as i128) >> shift
}

/// An integer constant expression folded: `plus`'s address, less `minus`'s, plus `value`.
#[derive(Clone, Copy)]
struct Folded {
    plus: Option<Symbol>,
    minus: Option<Symbol>,
    value: i64,
}

impl Folded {
    fn number(value: i64) -> Folded {
        Folded { plus: None, minus: None, value }
    }
}
