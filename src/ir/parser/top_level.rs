//! Top-level entities: the module's globals and their initialisers, function headers (linkage,
//! calling convention, attributes) and declarations.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn module(&mut self) -> PResult<()> {
        loop {
            match self.tok.tok {
                Tok::Eof => {
                    for (id, group) in std::mem::take(&mut self.pending_groups) {
                        if let Some(&kind) = self.frame_pointer_groups.get(group) {
                            self.module.functions[id.0 as usize].frame_pointer = kind;
                        }
                    }
                    return self.resolve_pending_registers();
                }
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
                    let span = self.bump()?.span;
                    let which = self.tok;
                    if !(self.eat_word("datalayout")? || self.eat_word("triple")?) {
                        return Err(self.expected("'datalayout' or 'triple' after 'target'"));
                    }
                    self.expect_punct(b'=', "")?;
                    let s = self.string("")?;
                    if which.tok == Tok::Word("triple") {
                        self.module.triple = Some(s);
                        self.module.triple_span = span;
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
                    let Tok::AttrGroup(group) = self.tok.tok else {
                        return Err(self.expected("an attribute group '#N'"));
                    };
                    self.bump()?;
                    self.expect_punct(b'=', "")?;
                    if !self.is_punct(b'{') {
                        return Err(self.expected("'{'"));
                    }
                    let (directives, frame_pointer) = self.attribute_group_body()?;
                    if directives != StatepointDirectives::default() {
                        Arc::make_mut(&mut self.statepoint_groups).insert(group, directives);
                    }
                    if let Some(kind) = frame_pointer {
                        self.frame_pointer_groups.insert(group, kind);
                    }
                }
                Tok::Meta(name) => {
                    let span = self.tok.span;
                    self.bump()?;
                    self.expect_punct(b'=', " after a metadata name")?;
                    let node = self.metadata_definition()?;
                    // A numbered node is defined once (named ones, like `!llvm.ident`, gather operands).
                    let numbered = name.bytes().all(|b| b.is_ascii_digit());
                    if Arc::make_mut(&mut self.metadata).insert(name, node).is_some() && numbered {
                        return Err(self.err(span, format!("metadata node '!{name}' is defined twice")));
                    }
                }
                Tok::Global(name) => self.global_variable(name)?,
                Tok::Local(name) => self.type_definition(name)?,
                Tok::Word("module") => return Err(self.err(self.tok.span, "unsupported module-level inline asm")),
                Tok::Comdat(name) => {
                    let span = self.tok.span;
                    self.bump()?;
                    self.expect_punct(b'=', " after a comdat name")?;
                    self.expect_word("comdat", " after '='")?;
                    let kind = match self.tok.tok {
                        Tok::Word(k @ ("any" | "exactmatch" | "largest" | "nodeduplicate" | "samesize")) => k,
                        _ => return Err(self.expected("a comdat selection kind")),
                    };
                    self.bump()?;
                    self.module.comdats.push(Comdat { name: name_string(name), kind: kind.to_string(), span });
                }
                _ => return Err(self.expected("a top-level entity")),
            }
        }
    }

    /// Fills in the registers of the headers' `hwreg` and `noclobber` attributes now that every
    /// metadata node is known.
    fn resolve_pending_registers(&mut self) -> PResult<()> {
        self.metadata_complete = true;
        for pending in std::mem::take(&mut self.pending_registers) {
            match pending.of {
                RegistersOf::Param(f, i) => {
                    let name = self.register_names(&pending.reference, "hwreg", pending.span)?.remove(0);
                    self.module.functions[f.0 as usize].params[i].abi = ParamAbi::Register(name);
                }
                RegistersOf::NoClobber(f) => {
                    let registers = self.register_names(&pending.reference, "noclobber", pending.span)?;
                    self.module.functions[f.0 as usize].noclobber = Some(NoClobber { registers, span: pending.span });
                }
            }
        }
        Ok(())
    }

    /// `%name = type ...`: resolved on first use, or here; the body is read again to move past it.
    fn type_definition(&mut self, name: &'a str) -> PResult<()> {
        let span = self.tok.span;
        self.bump()?;
        self.expect_punct(b'=', " after a type name")?;
        self.expect_word("type", " (a top-level '%name = ...' defines a type)")?;
        if self.defined_types.insert(name, ()).is_some() {
            return Err(self.err(span, format!("redefinition of type '%{name}'")));
        }
        let own = name_string(name);
        let ty = self.named_type(name, span, 0)?;
        self.type_definition_body(name, 0)?;
        if let Type::Struct(s) = ty {
            if s.name.as_deref() == Some(&*own) {
                self.module.types.push(s);
            }
        }
        Ok(())
    }

    /// Linkage, visibility and similar words before a global or function, with whether `external`
    /// was explicit and where `thread_local` was.
    pub(super) fn linkage(&mut self) -> PResult<(Linkage, bool, Option<Span>)> {
        let mut linkage = Linkage::External;
        let mut explicit_external = false;
        let mut thread_local = None;
        loop {
            match self.tok.tok {
                Tok::Word("thread_local") => {
                    thread_local = Some(self.tok.span);
                    if self.peek()?.tok == Tok::Punct(b'(') {
                        // The TLS model: the general-dynamic one serves every model's uses.
                        self.bump()?;
                        self.skip_balanced()?;
                        continue;
                    }
                }
                Tok::Word("internal") => linkage = Linkage::Internal,
                Tok::Word("private") => linkage = Linkage::Private,
                Tok::Word("weak") => linkage = Linkage::Weak,
                Tok::Word("weak_odr") => linkage = Linkage::WeakOdr,
                Tok::Word("linkonce") => linkage = Linkage::LinkOnce,
                Tok::Word("linkonce_odr") => linkage = Linkage::LinkOnceOdr,
                Tok::Word("common") => linkage = Linkage::Common,
                Tok::Word("extern_weak") => linkage = Linkage::ExternWeak,
                Tok::Word("available_externally") => linkage = Linkage::AvailableExternally,
                Tok::Word("appending") => linkage = Linkage::Appending,
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
                _ => return Ok((linkage, explicit_external, thread_local)),
            }
            self.bump()?;
        }
    }

    /// `addrspace(0)`, the only address space of globals, functions and stack slots. Leaves the `)`
    /// current.
    pub(super) fn address_space(&mut self) -> PResult<()> {
        let (span, n) = self.address_space_number()?;
        if n != 0 {
            return Err(self.err(span, format!("unsupported address space {n} outside a pointer type")));
        }
        Ok(())
    }

    /// `addrspace(N)` of a pointer type: N below 256, where every address space is the same flat
    /// memory on both targets (from 256 on, x86-64 gives them segment and 32-bit pointer meanings).
    /// Leaves the `)` current.
    pub(super) fn pointer_address_space(&mut self) -> PResult<u32> {
        let (span, n) = self.address_space_number()?;
        if n >= 256 {
            return Err(self.err(span, format!("unsupported address space {n} (patchmap supports 0 to 255)")));
        }
        Ok(n as u32)
    }

    fn address_space_number(&mut self) -> PResult<(Span, u64)> {
        let span = self.tok.span;
        self.bump()?;
        self.expect_punct(b'(', " after 'addrspace'")?;
        let n = self.unsigned("an address space number")?;
        if !self.is_punct(b')') {
            return Err(self.expected("')'"));
        }
        Ok((span, n))
    }

    pub(super) fn calling_convention(&mut self) -> PResult<CallConv> {
        let span = self.tok.span;
        let named = match self.tok.tok {
            Tok::Word("ccc") => Some(CallConv::C),
            Tok::Word("explicitcc") => Some(CallConv::Explicit),
            Tok::Word("anyregcc") => Some(CallConv::AnyReg),
            Tok::Word("fastcc") => Some(CallConv::Fast),
            Tok::Word("coldcc") => Some(CallConv::Cold),
            Tok::Word("tailcc") => Some(CallConv::Tail),
            _ => None,
        };
        if let Some(cc) = named {
            self.bump()?;
            return Ok(cc);
        }
        match self.tok.tok {
            Tok::Word("cc") => {
                self.bump()?;
                let n = self.unsigned("a calling convention number after 'cc'")?;
                match n {
                    0 => Ok(CallConv::C),
                    8 => Ok(CallConv::Fast),
                    9 => Ok(CallConv::Cold),
                    13 => Ok(CallConv::AnyReg),
                    18 => Ok(CallConv::Tail),
                    _ => Err(self.err(span, format!("unsupported calling convention 'cc {n}'"))),
                }
            }
            Tok::Word(w) if is_calling_convention(w) => {
                Err(self.err(span, format!("unsupported calling convention '{w}'")))
            }
            _ => Ok(CallConv::C),
        }
    }

    /// Skips parameter or return attributes, rejecting the ones that change the ABI, except `byval`,
    /// `sret`, `elementtype` and `hwreg`, which it returns, with where a `nest` attribute was (the
    /// static chain register, which only local functions may have).
    pub(super) fn param_attributes(&mut self) -> PResult<ParamAttributes<'a>> {
        let mut abi = ParamAbi::Plain;
        let mut nest = None;
        let mut hwreg = None;
        let mut ext = Extension::None;
        loop {
            match self.tok.tok {
                Tok::Word(w @ ("signext" | "zeroext")) => {
                    let this = if w == "signext" { Extension::Sign } else { Extension::Zero };
                    if ext != Extension::None && ext != this {
                        // LLVM's verifier: "Attributes 'zeroext and signext' are incompatible!"
                        return Err(self.err(self.tok.span, "'signext' and 'zeroext' cannot be combined"));
                    }
                    ext = this;
                    self.bump()?;
                }
                Tok::Word("hwreg") => {
                    let span = self.bump()?.span;
                    if abi != ParamAbi::Plain {
                        return Err(self.err(
                            span,
                            "'hwreg' cannot be combined with 'byval', 'sret', 'elementtype' or another 'hwreg'",
                        ));
                    }
                    self.expect_punct(b'(', " after 'hwreg'")?;
                    let reference = self.metadata_operand("hwreg")?;
                    self.expect_punct(b')', " to close 'hwreg'")?;
                    abi = ParamAbi::Register(RegisterName { name: String::new(), span });
                    hwreg = Some((reference, span));
                }
                Tok::Word("nest") => {
                    nest = Some(self.tok.span);
                    self.bump()?;
                }
                Tok::Word(w @ ("byval" | "sret")) => {
                    self.bump()?;
                    self.expect_punct(b'(', format_args!(" after '{w}'"))?;
                    let tspan = self.tok.span;
                    let ty = self.value_type()?;
                    if !ty.is_sized() {
                        return Err(self.err(tspan, format!("'{w}' of unsized type '{ty}'")));
                    }
                    self.expect_punct(b')', format_args!(" to close '{w}'"))?;
                    abi = if w == "byval" { ParamAbi::ByVal(ty) } else { ParamAbi::StructRet(ty) };
                }
                Tok::Word("elementtype") => {
                    let sig = self.nested(self.tok.span, "function types in 'elementtype'", |p| {
                        p.bump()?;
                        p.expect_punct(b'(', " after 'elementtype'")?;
                        let ret = p.ty()?;
                        if !p.is_punct(b'(') {
                            return Err(p.expected("a function type in 'elementtype' (statepoint targets)"));
                        }
                        let sig = p.function_type(ret)?;
                        p.expect_punct(b')', " to close 'elementtype'")?;
                        Ok(sig)
                    })?;
                    abi = ParamAbi::ElementType(Box::new(sig));
                }
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
                _ => {
                    if let Some((_, span)) = hwreg.as_ref().filter(|_| !matches!(abi, ParamAbi::Register(_))) {
                        return Err(self.err(*span, "'hwreg' cannot be combined with 'byval', 'sret' or 'elementtype'"));
                    }
                    return Ok(ParamAttributes { abi, nest, hwreg, ext });
                }
            }
        }
    }

    /// Attributes of a result or of a function type's parameter, where `hwreg` means nothing; the
    /// result's `signext` or `zeroext`.
    pub(super) fn non_parameter_attributes(&mut self) -> PResult<Extension> {
        let attributes = self.param_attributes()?;
        if let Some((_, span)) = attributes.hwreg {
            return Err(
                self.err(span, "'hwreg' applies to the parameters of a function and the arguments of a call only")
            );
        }
        Ok(attributes.ext)
    }

    /// Skips function attributes up to `{` (definitions) or the next top-level entity (declarations),
    /// keeping the placement, the `gc` strategy and `noclobber` (its operand and where it is).
    pub(super) fn function_attributes(&mut self) -> PResult<FunctionAttributes<'a>> {
        let mut placement = Placement::default();
        let mut gc = None;
        let mut noclobber = None;
        let mut personality = None;
        let mut frame_pointer = FramePointerKind::None;
        let mut groups = Vec::new();
        loop {
            match self.tok.tok {
                Tok::Word("personality") => {
                    let span = self.bump()?.span;
                    let tspan = self.tok.span;
                    let ty = self.value_type()?;
                    self.expect_pointer(tspan, &ty, "the personality")?;
                    let Tok::Global(name) = self.tok.tok else {
                        return Err(self.expected("the personality function's '@name'"));
                    };
                    self.bump()?;
                    personality = Some(Personality { name: name_string(name), span });
                }
                Tok::Word("noclobber") => {
                    let span = self.bump()?.span;
                    if noclobber.is_some() {
                        return Err(self.err(span, "more than one 'noclobber' attribute"));
                    }
                    self.expect_punct(b'(', " after 'noclobber'")?;
                    noclobber = Some((self.metadata_operand("noclobber")?, span));
                    self.expect_punct(b')', " to close 'noclobber'")?;
                }
                Tok::Word("gc") => {
                    self.bump()?;
                    gc = Some(self.string("a garbage collector name")?);
                }
                Tok::Str("frame-pointer") => frame_pointer = self.frame_pointer_attribute()?,
                Tok::AttrGroup(group) => {
                    self.bump()?;
                    groups.push(group);
                }
                Tok::Word("align") => {
                    self.bump()?;
                    placement.align = Some(self.alignment()?);
                }
                Tok::Word("section") => {
                    self.bump()?;
                    placement.section = Some(self.section_name()?);
                }
                Tok::Word("comdat") => placement.comdat = Some(self.comdat_reference()?),
                Tok::Word("addrspace") => {
                    self.address_space()?;
                    self.bump()?;
                }
                Tok::Word(w) if UNSUPPORTED_FN_PARTS.contains(&w) => {
                    return Err(self.err(self.tok.span, format!("unsupported function attribute '{w}'")));
                }
                // `!name !value` attachments; `!name =` starts a metadata definition after a declaration.
                Tok::Meta(_) if self.peek()?.tok != Tok::Punct(b'=') => {
                    self.bump()?;
                    self.skip_metadata_value()?;
                }
                _ => {
                    if !self.skip_attribute(|w| !TOP_LEVEL.contains(&w) && !is_opcode(w))? {
                        return Ok(FunctionAttributes { placement, gc, noclobber, personality, frame_pointer, groups });
                    }
                }
            }
        }
    }

    /// The value of statepoint directive `key` (at `span`), after its `=`, into `directives`.
    pub(super) fn statepoint_directive(
        &mut self,
        span: Span,
        key: &str,
        directives: &mut StatepointDirectives,
    ) -> PResult<()> {
        let value = self.string(&format!(" with the value of \"{key}\""))?;
        if !directives.set(key, &value) {
            return Err(self.err(span, format!("\"{key}\"=\"{value}\" is not a number in range")));
        }
        Ok(())
    }

    /// An attribute group's `{ ... }`, skipped but for the statepoint directives and the
    /// `"frame-pointer"` value it holds.
    fn attribute_group_body(&mut self) -> PResult<(StatepointDirectives, Option<FramePointerKind>)> {
        let open = self.tok;
        self.bump()?;
        let mut directives = StatepointDirectives::default();
        let mut frame_pointer = None;
        let mut depth = 1usize;
        while depth > 0 {
            match self.tok.tok {
                Tok::Str("frame-pointer") if depth == 1 => {
                    frame_pointer = Some(self.frame_pointer_attribute()?);
                    continue;
                }
                Tok::Str(key @ (StatepointDirectives::ID | StatepointDirectives::PATCH_BYTES)) if depth == 1 => {
                    let span = self.tok.span;
                    self.bump()?;
                    if self.eat_punct(b'=')? {
                        self.statepoint_directive(span, key, &mut directives)?;
                    }
                    continue;
                }
                Tok::Word(w @ ("noclobber" | "hwreg")) if depth == 1 => {
                    return Err(self.err(
                        self.tok.span,
                        format!("'{w}' must be written on the function or parameter itself, not in an attribute group"),
                    ));
                }
                Tok::Punct(b'(' | b'[' | b'{' | b'<') => depth += 1,
                Tok::Punct(b')' | b']' | b'}' | b'>') => depth -= 1,
                Tok::Eof => return Err(self.err(open.span, format!("unbalanced {}", open.tok.describe()))),
                _ => {}
            }
            self.bump()?;
        }
        Ok((directives, frame_pointer))
    }

    /// `"frame-pointer"="VALUE"`, the current token being the key.
    fn frame_pointer_attribute(&mut self) -> PResult<FramePointerKind> {
        self.bump()?;
        self.expect_punct(b'=', " after \"frame-pointer\"")?;
        let span = self.tok.span;
        let value = self.string("the value of \"frame-pointer\"")?;
        FramePointerKind::from_attribute(&value).ok_or_else(|| {
            self.err(
                span,
                format!("invalid value for 'frame-pointer' attribute: \"{value}\" (expected none, non-leaf, all or reserved)"),
            )
        })
    }

    /// `"name"` after `section`: a section name `object` can write (no NUL).
    fn section_name(&mut self) -> PResult<String> {
        let span = self.tok.span;
        let name = self.string("a section name")?;
        if name.is_empty() || name.contains('\0') {
            return Err(self.err(span, "a section name must be non-empty and contain no NUL"));
        }
        Ok(name)
    }

    /// `comdat` or `comdat($name)`, the current token being `comdat`: the group's name (empty for
    /// the object's own, filled in by the caller).
    fn comdat_reference(&mut self) -> PResult<String> {
        self.bump()?;
        if !self.eat_punct(b'(')? {
            return Ok(String::new());
        }
        let name = match self.tok.tok {
            Tok::Comdat(n) => name_string(n),
            _ => return Err(self.expected("a comdat name '$name'")),
        };
        self.bump()?;
        self.expect_punct(b')', " after the comdat name")?;
        Ok(name)
    }

    /// Skips one attribute we accept without meaning: `#N`, `"key"[="value"]`, or a word that
    /// `is_attribute` admits with its `(...)` arguments. False, consuming nothing, at anything else.
    pub(super) fn skip_attribute(&mut self, is_attribute: impl Fn(&str) -> bool) -> PResult<bool> {
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

    pub(super) fn global_variable(&mut self, raw: &'a str) -> PResult<()> {
        let span = self.tok.span;
        let id = GlobalId(self.module.globals.len() as u32);
        if self.symbols.get(raw) != Some(&Symbol::Global(id)) {
            return Err(self.err(span, format!("redefinition of '@{raw}'")));
        }
        self.bump()?;
        self.expect_punct(b'=', " after a global name")?;
        let (linkage, external, thread_local) = self.linkage()?;
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
        if !external && !ty.is_sized() {
            return Err(self.err(ty_span, format!("a global variable defined here cannot have unsized type '{ty}'")));
        }
        let init = if external || linkage == Linkage::ExternWeak { None } else { Some(self.initializer(&ty)?) };
        let mut align = None;
        let mut placement = Placement { thread_local: thread_local.is_some(), ..Placement::default() };
        while self.is_punct(b',') {
            let next = self.peek()?;
            match next.tok {
                Tok::Word("align") => {
                    self.bump()?;
                    self.bump()?;
                    align = Some(self.alignment()?);
                }
                Tok::Word("section") => {
                    self.bump()?;
                    self.bump()?;
                    placement.section = Some(self.section_name()?);
                }
                Tok::Word("comdat") => {
                    self.bump()?;
                    placement.comdat = Some(self.comdat_reference()?);
                }
                Tok::Word(w @ ("partition" | "code_model")) => {
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
        if placement.comdat.as_deref() == Some("") {
            placement.comdat = Some(name_string(raw));
        }
        self.module.globals.push(Global {
            placement,
            name: name_string(raw),
            ty,
            init,
            constant,
            linkage,
            align,
            span,
        });
        Ok(())
    }

    pub(super) fn initializer(&mut self, ty: &Type) -> PResult<Init> {
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
            (Tok::Punct(b'{' | b'<'), Type::Struct(s)) => {
                Ok(Init::Struct(self.struct_members(span, ty, s, |p, field| p.initializer(field))?))
            }
            (Tok::Word("undef" | "poison"), _) if ty.is_aggregate() => {
                let c = if self.is_word("undef") { Const::Undef } else { Const::Poison };
                self.bump()?;
                Ok(Init::Scalar(c))
            }
            (_, Type::Array(..)) => Err(self.expected(&format!("an array constant of type '{ty}'"))),
            (_, Type::Struct(_)) => Err(self.expected(&format!("a struct constant of type '{ty}'"))),
            (Tok::Global(name), Type::Ptr(0)) => {
                let symbol = self.address_of(name, span)?;
                self.bump()?;
                Ok(Init::Scalar(Const::Address(symbol, 0)))
            }
            _ => Ok(Init::Scalar(self.constant(ty)?)),
        }
    }

    /// `define`/`declare` after the keyword.
    pub(super) fn function(&mut self, is_definition: bool) -> PResult<()> {
        let (linkage, _, thread_local) = self.linkage()?;
        if let Some(span) = thread_local {
            return Err(self.err(span, "'thread_local' applies to global variables, not functions"));
        }
        let cc = self.calling_convention()?;
        let ret_ext = self.non_parameter_attributes()?;
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
        let mut varargs = false;
        if Intrinsic::takes_metadata(raw) {
            // `metadata` parameters: calls drop their operands (see `call`).
            if !self.is_punct(b'(') {
                return Err(self.expected("'(' to open the parameter list"));
            }
            self.skip_balanced()?;
        } else {
            self.expect_punct(b'(', " to open the parameter list")?;
        }
        if !self.is_punct(b')') && !Intrinsic::takes_metadata(raw) {
            loop {
                if self.tok.tok == Tok::Ellipsis {
                    self.bump()?;
                    varargs = true;
                    break;
                }
                let ty = self.value_type()?;
                let aspan = self.tok.span;
                let ParamAttributes { mut abi, nest, hwreg, ext } = self.param_attributes()?;
                if let Some((reference, span)) = hwreg {
                    let of = RegistersOf::Param(id, f.params.len());
                    self.pending_registers.push(PendingRegisters { of, reference, span });
                }
                if let Some(span) = nest {
                    // Every caller of a local function is in this module and passes the chain as an
                    // ordinary argument, as its definition takes it.
                    if !linkage.is_local() && is_definition {
                        return Err(self.err(
                            span,
                            "'nest' parameters are supported on declarations and on internal and private \
                             functions only (a definition's is compiled as an ordinary parameter, which a caller \
                             in another object would not know)",
                        ));
                    }
                    if !linkage.is_local() {
                        if abi != ParamAbi::Plain || ty.is_aggregate() {
                            return Err(self.err(span, "a 'nest' parameter is a single value with no other attribute"));
                        }
                        abi = ParamAbi::Nest;
                    }
                }
                if !matches!(abi, ParamAbi::Plain | ParamAbi::Register(_)) && ty != Type::PTR {
                    return Err(self.err(aspan, format!("'byval' and 'sret' apply to 'ptr' parameters, not '{ty}'")));
                }
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
                f.params.push(Param { ty, name, abi, ext });
                if !self.eat_punct(b',')? {
                    break;
                }
            }
        }
        if !Intrinsic::takes_metadata(raw) {
            self.expect_punct(b')', " to close the parameter list")?;
        }
        let FunctionAttributes { placement, gc, noclobber, personality, frame_pointer, groups } =
            self.function_attributes()?;
        self.pending_groups.extend(groups.into_iter().map(|g| (id, g)));
        if let Some((reference, span)) = noclobber {
            self.pending_registers.push(PendingRegisters { of: RegistersOf::NoClobber(id), reference, span });
        }
        let mut function = Function {
            placement,
            name: name_string(raw),
            linkage,
            cc,
            gc,
            noclobber: None,
            personality,
            frame_pointer,
            ret,
            ret_ext,
            params: Vec::new(),
            varargs,
            blocks: Vec::new(),
            insts: Vec::new(),
            span,
        };
        function.params = f.params.clone();
        if function.placement.comdat.as_deref() == Some("") {
            function.placement.comdat = Some(function.name.clone());
        }
        if is_definition {
            if !self.is_punct(b'{') {
                return Err(self.expected("'{' to start the function body"));
            }
            // Read later (see `parse`); skip to the token after the body's `}`.
            let name = function.name.clone();
            let (lex, tok) = (self.lex.clone(), self.tok);
            self.skip_body();
            let lines = self.lex.line().saturating_sub(lex.line()) as usize;
            self.bodies.push(PendingBody { function: id, name, state: f, lex, tok, lines });
            self.bump()?;
        }
        self.module.functions.push(function);
        Ok(())
    }

    /// Skips a function body whose `{` is the current token, to just past its `}`: where the
    /// pre-scan found that body's end, else by scanning.
    fn skip_body(&mut self) {
        let start = self.lex.offset();
        // Bodies come in the same order in both passes; the pre-scan may have found fewer (it stops
        // at a lexing error).
        while let Some((at, end)) = self.body_ends.as_slice().first() {
            if *at > start {
                break;
            }
            let at = *at;
            let end = end.clone();
            self.body_ends.next();
            if at == start {
                self.lex = end;
                return;
            }
        }
        self.lex.skip_body();
    }

    // ---- function bodies ----
}

/// What a function's attributes say that the IR keeps: its placement, `gc` strategy, `noclobber`
/// operand (with where it is) and personality.
pub(super) struct FunctionAttributes<'a> {
    placement: Placement,
    gc: Option<String>,
    noclobber: Option<MetadataAttribute<'a>>,
    personality: Option<Personality>,
    /// `"frame-pointer"` written on the function itself.
    frame_pointer: FramePointerKind,
    /// The attribute groups `#N` named, whose `"frame-pointer"` applies once they are read.
    groups: Vec<&'a str>,
}
