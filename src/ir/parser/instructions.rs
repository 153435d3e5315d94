//! Instructions: opcodes, flags, operands and calls.

use super::*;
use crate::ir::{Bundle, BundleTag, OperandSpans, StatepointDirectives};

impl<'a> Parser<'a> {
    pub(super) fn instruction(&mut self, f: &mut FnState<'a>) -> PResult<InstId> {
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
                if matches!(ty, Type::Void) {
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
                Some(value_name(n))
            }
            None if !matches!(ty, Type::Void) => {
                let n = f.next_number;
                f.next_number += 1;
                self.define_local(f, Key::Num(n), id, span)?;
                Some(ValueName::from(n))
            }
            None => None,
        };
        let operand_spans = OperandSpans::from_slice(&f.spans);
        f.insts.push(InstData { kind, ty, name, span, operand_spans });
        Ok(id)
    }

    /// The lane number of `extractelement` or `insertelement`: an integer operand.
    fn lane_index(&mut self, f: &mut FnState<'a>) -> PResult<Operand> {
        let ispan = self.tok.span;
        let index = self.operand(f)?;
        if !index.ty.is_int() {
            return Err(self.err(ispan, format!("a vector lane index must be an integer, found '{}'", index.ty)));
        }
        Ok(index)
    }

    pub(super) fn flags(&mut self, set: &[&str]) -> PResult<()> {
        while let Tok::Word(w) = self.tok.tok {
            if !set.contains(&w) {
                break;
            }
            self.bump()?;
        }
        Ok(())
    }

    pub(super) fn inst_kind(&mut self, f: &mut FnState<'a>, op: &'a str, op_span: Span) -> PResult<(Inst, Type)> {
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
            let lane = ty.lane_type();
            let ok = if op.is_float() { lane.is_float() } else { lane.is_int() };
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
            self.expect_word("to", format_args!(" in '{op}'"))?;
            let to = self.value_type()?;
            return Ok((Inst::Cast { op: cast, from, val }, to));
        }
        match op {
            "fneg" => {
                self.flags(FAST_MATH)?;
                let ty_span = self.tok.span;
                let ty = self.value_type()?;
                if !ty.lane_type().is_float() {
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
                if !(ty.lane_type().is_int() || ty.lane_type().is_ptr()) {
                    return Err(self.err(ty_span, format!("'icmp' requires integer or pointer operands, found '{ty}'")));
                }
                let lhs = self.value(f, &ty)?;
                self.expect_punct(b',', " between the operands")?;
                let rhs = self.value(f, &ty)?;
                let result = ty.with_lanes_of(Type::I1);
                Ok((Inst::ICmp { pred, ty, lhs, rhs }, result))
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
                if !ty.lane_type().is_float() {
                    return Err(self.err(ty_span, format!("'fcmp' requires floating-point operands, found '{ty}'")));
                }
                let lhs = self.value(f, &ty)?;
                self.expect_punct(b',', " between the operands")?;
                let rhs = self.value(f, &ty)?;
                let result = ty.with_lanes_of(Type::I1);
                Ok((Inst::FCmp { pred, ty, lhs, rhs }, result))
            }
            "select" => {
                self.flags(FAST_MATH)?;
                let cspan = self.tok.span;
                let cty = self.value_type()?;
                if *cty.lane_type() != Type::I1 {
                    return Err(self.err(cspan, format!("'select' condition must be i1, found {cty}")));
                }
                let cond = self.value(f, &cty)?;
                self.expect_punct(b',', "")?;
                let tspan = self.tok.span;
                let ty = self.value_type()?;
                if cty.is_vector() && cty.lanes() != ty.lanes() {
                    return Err(
                        self.err(tspan, format!("'select' of '{ty}' by a '{cty}' condition: the lane counts differ"))
                    );
                }
                let if_true = self.value(f, &ty)?;
                self.expect_punct(b',', "")?;
                let fspan = self.tok.span;
                let fty = self.value_type()?;
                self.expect_type(fspan, &fty, &ty, "the second 'select' value")?;
                let if_false = self.value(f, &ty)?;
                Ok((Inst::Select { lanewise: cty.is_vector(), cond, if_true, if_false }, ty))
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
                Ok((Inst::Alloca { ty, count, align }, Type::PTR))
            }
            "load" => {
                let atomic = self.eat_word("atomic")?;
                let volatile = self.eat_word("volatile")?;
                let ty = self.value_type()?;
                self.expect_punct(b',', " after the loaded type")?;
                let pspan = self.tok.span;
                let pty = self.value_type()?;
                self.expect_pointer(pspan, &pty, "the address of 'load'")?;
                let ptr = self.value(f, &pty)?;
                let atomic = if atomic { Some(self.ordering()?) } else { None };
                let align = self.trailing_align()?;
                Ok((Inst::Load { ptr, align, volatile, atomic }, ty))
            }
            "store" => {
                let atomic = self.eat_word("atomic")?;
                let volatile = self.eat_word("volatile")?;
                let val = self.operand(f)?;
                self.expect_punct(b',', " after the stored value")?;
                let pspan = self.tok.span;
                let pty = self.value_type()?;
                self.expect_pointer(pspan, &pty, "the address of 'store'")?;
                let ptr = self.value(f, &pty)?;
                let atomic = if atomic { Some(self.ordering()?) } else { None };
                let align = self.trailing_align()?;
                Ok((Inst::Store { val, ptr, align, volatile, atomic }, Type::Void))
            }
            "atomicrmw" => {
                self.eat_word("volatile")?;
                let op = match self.tok.tok {
                    Tok::Word(w) => RmwOp::ALL.iter().find(|(_, k)| *k == w).map(|(op, _)| *op),
                    _ => None,
                };
                let Some(op) = op else {
                    return Err(match self.tok.tok {
                        Tok::Word(w) => self.err(self.tok.span, format!("unsupported 'atomicrmw' operation '{w}'")),
                        _ => self.expected("an 'atomicrmw' operation"),
                    });
                };
                self.bump()?;
                let pspan = self.tok.span;
                let pty = self.value_type()?;
                self.expect_pointer(pspan, &pty, "the address of 'atomicrmw'")?;
                let ptr = self.value(f, &pty)?;
                self.expect_punct(b',', " after the address")?;
                let val = self.operand(f)?;
                let ordering = self.ordering()?;
                self.trailing_align()?;
                let ty = val.ty.clone();
                Ok((Inst::AtomicRmw { op, ptr, val, ordering }, ty))
            }
            "fence" => Ok((Inst::Fence { ordering: self.ordering()? }, Type::Void)),
            "cmpxchg" => {
                self.eat_word("weak")?;
                self.eat_word("volatile")?;
                let pspan = self.tok.span;
                let pty = self.value_type()?;
                self.expect_pointer(pspan, &pty, "the address of 'cmpxchg'")?;
                let ptr = self.value(f, &pty)?;
                self.expect_punct(b',', " after the address")?;
                let cmp = self.operand(f)?;
                self.expect_punct(b',', " after the expected value")?;
                let nspan = self.tok.span;
                let nty = self.value_type()?;
                self.expect_type(nspan, &nty, &cmp.ty, "the new value of 'cmpxchg'")?;
                let new = self.value(f, &nty)?;
                let success = self.ordering()?;
                let failure = self.ordering()?;
                self.trailing_align()?;
                let result = StructType::new(None, false, Some(vec![cmp.ty.clone(), Type::I1]));
                Ok((Inst::CmpXchg { ptr, cmp, new, success, failure }, Type::Struct(Arc::new(result))))
            }
            "extractelement" => {
                let vspan = self.tok.span;
                let vec = self.operand(f)?;
                if !vec.ty.is_vector() {
                    return Err(
                        self.err(vspan, format!("'extractelement' requires a vector operand, found '{}'", vec.ty))
                    );
                }
                self.expect_punct(b',', " after the vector")?;
                let index = self.lane_index(f)?;
                let ty = vec.ty.lane_type().clone();
                Ok((Inst::ExtractElement { vec, index }, ty))
            }
            "insertelement" => {
                let vspan = self.tok.span;
                let ty = self.value_type()?;
                if !ty.is_vector() {
                    return Err(self.err(vspan, format!("'insertelement' requires a vector operand, found '{ty}'")));
                }
                let vec = self.value(f, &ty)?;
                self.expect_punct(b',', " after the vector")?;
                let espan = self.tok.span;
                let ety = self.value_type()?;
                self.expect_type(espan, &ety, ty.lane_type(), "the inserted element")?;
                let val = self.value(f, &ety)?;
                self.expect_punct(b',', " after the inserted element")?;
                let index = self.lane_index(f)?;
                Ok((Inst::InsertElement { vec, val, index }, ty))
            }
            "shufflevector" => {
                let aspan = self.tok.span;
                let a = self.operand(f)?;
                if !a.ty.is_vector() {
                    return Err(self.err(aspan, format!("'shufflevector' requires vector operands, found '{}'", a.ty)));
                }
                self.expect_punct(b',', " after the first vector")?;
                let bspan = self.tok.span;
                let bty = self.value_type()?;
                self.expect_type(bspan, &bty, &a.ty, "the second 'shufflevector' operand")?;
                let b = self.value(f, &bty)?;
                self.expect_punct(b',', " after the second vector")?;
                let mspan = self.tok.span;
                let mty = self.value_type()?;
                let Type::Vector(m, ref elem) = mty else {
                    return Err(self.err(mspan, format!("the 'shufflevector' mask must be '<M x i32>', found '{mty}'")));
                };
                if **elem != Type::I32 {
                    return Err(self.err(mspan, format!("the 'shufflevector' mask must be '<M x i32>', found '{mty}'")));
                }
                let cspan = self.tok.span;
                let mask_const = self.constant(&mty)?;
                let lanes = 2 * a.ty.lanes().unwrap_or(0);
                let lane = |c: &Const| -> PResult<Option<u32>> {
                    match c {
                        Const::Undef | Const::Poison => Ok(None),
                        Const::Zero => Ok(Some(0)),
                        Const::Int(i) if (0..i64::from(lanes)).contains(i) => Ok(Some(*i as u32)),
                        _ => Err(self
                            .err(cspan, format!("'shufflevector' mask lanes are constants below {lanes} or poison"))),
                    }
                };
                let mask = match &mask_const {
                    Const::Aggregate(items) => items.iter().map(lane).collect::<PResult<Vec<_>>>()?,
                    other => vec![lane(other)?; m as usize],
                };
                let ty = Type::Vector(m, Box::new(a.ty.lane_type().clone()));
                Ok((Inst::ShuffleVector { a, b, mask }, ty))
            }
            "freeze" => {
                let ty = self.value_type()?;
                let val = self.value(f, &ty)?;
                Ok((Inst::Freeze { val }, ty))
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
                let vector_base = matches!(&bty, Type::Vector(_, lane) if lane.is_ptr());
                if !vector_base {
                    self.expect_pointer(bspan, &bty, "the base of 'getelementptr'")?;
                }
                let base = self.value(f, &bty)?;
                // The lanes of a vector getelementptr: its vector operands' (all alike).
                let mut lanes = bty.lanes();
                let mut indices = Vec::new();
                while self.is_punct(b',') && !matches!(self.peek()?.tok, Tok::Meta(_)) {
                    self.bump()?;
                    let ispan = self.tok.span;
                    let idx = self.operand(f)?;
                    if !idx.ty.lane_type().is_int() {
                        return Err(self.err(
                            ispan,
                            format!("'getelementptr' index must be an integer or a vector of them, found '{}'", idx.ty),
                        ));
                    }
                    if let Some(n) = idx.ty.lanes() {
                        if lanes.is_some_and(|l| l != n) {
                            return Err(self.err(
                                ispan,
                                format!(
                                    "'getelementptr' vector index of {n} lanes in one of {} lanes",
                                    lanes.unwrap_or(0)
                                ),
                            ));
                        }
                        lanes = Some(n);
                    }
                    indices.push(idx);
                }
                let ty = match lanes {
                    Some(n) => Type::Vector(n, Box::new(bty.lane_type().clone())),
                    None => bty,
                };
                Ok((Inst::Gep { inbounds, source, base, indices, vector_base }, ty))
            }
            "extractvalue" => {
                let aspan = self.tok.span;
                let agg = self.operand(f)?;
                if !agg.ty.is_aggregate() {
                    return Err(
                        self.err(aspan, format!("'extractvalue' requires an aggregate operand, found '{}'", agg.ty))
                    );
                }
                let (indices, ty) = self.member_indices(&agg.ty, "extractvalue")?;
                Ok((Inst::ExtractValue { agg, indices }, ty))
            }
            "insertvalue" => {
                let aspan = self.tok.span;
                let ty = self.value_type()?;
                if !ty.is_aggregate() {
                    return Err(self.err(aspan, format!("'insertvalue' requires an aggregate operand, found '{ty}'")));
                }
                let agg = self.value(f, &ty)?;
                self.expect_punct(b',', " after the aggregate")?;
                let vspan = self.tok.span;
                let val = self.operand(f)?;
                let (indices, member) = self.member_indices(&ty, "insertvalue")?;
                self.expect_type(vspan, &val.ty, &member, "the inserted value")?;
                Ok((Inst::InsertValue { agg, val, indices }, ty))
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
            "call" => self.call(f, TailKind::None, false),
            "invoke" => self.call(f, TailKind::None, true),
            "landingpad" => {
                let tspan = self.tok.span;
                let ty = self.value_type()?;
                // `token`: LLVM's statepoint tests land with one, for their `gc.relocate`s.
                if !is_landing_pad_type(&ty) && ty != Type::Token {
                    return Err(
                        self.err(tspan, format!("a landing pad's type is '{{ ptr, i32 }}' (or 'token'), not '{ty}'"))
                    );
                }
                let cleanup = self.eat_word("cleanup")?;
                let mut clauses = Vec::new();
                loop {
                    let clause: fn(Operand) -> Clause = match self.tok.tok {
                        Tok::Word("catch") => Clause::Catch,
                        Tok::Word("filter") => Clause::Filter,
                        _ => break,
                    };
                    self.bump()?;
                    let ospan = self.tok.span;
                    let operand = self.operand(f)?;
                    let c = clause(operand);
                    let expected = match &c {
                        Clause::Catch(o) => o.ty == Type::PTR,
                        Clause::Filter(o) => matches!(&o.ty, Type::Array(_, e) if **e == Type::PTR),
                    };
                    if !expected {
                        let (word, want) = match c {
                            Clause::Catch(_) => ("catch", "'ptr'"),
                            Clause::Filter(_) => ("filter", "an array of 'ptr'"),
                        };
                        return Err(self.err(ospan, format!("a '{word}' clause takes {want}")));
                    }
                    clauses.push(c);
                }
                if !cleanup && clauses.is_empty() {
                    return Err(self.err(op_span, "a landing pad needs 'cleanup' or a 'catch' or 'filter' clause"));
                }
                Ok((Inst::LandingPad { cleanup, clauses }, ty))
            }
            "resume" => {
                let vspan = self.tok.span;
                let val = self.operand(f)?;
                if !is_landing_pad_type(&val.ty) {
                    return Err(
                        self.err(vspan, format!("'resume' takes a landing pad's '{{ ptr, i32 }}', not '{}'", val.ty))
                    );
                }
                Ok((Inst::Resume { val }, Type::Void))
            }
            "tail" | "musttail" | "notail" => {
                let tail = match op {
                    "tail" => TailKind::Tail,
                    "musttail" => TailKind::MustTail,
                    _ => TailKind::NoTail,
                };
                self.expect_word("call", format_args!(" after '{op}'"))?;
                self.call(f, tail, false)
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
                    // Case values are kept in 64 bits.
                    Type::Int(b @ ..=64) => b,
                    Type::Int(_) => return Err(self.err(tspan, format!("unsupported 'switch' on '{ty}'"))),
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
            "indirectbr" => {
                let tspan = self.tok.span;
                let ty = self.value_type()?;
                self.expect_pointer(tspan, &ty, "the address of 'indirectbr'")?;
                let addr = self.value(f, &ty)?;
                self.expect_punct(b',', " after the address of 'indirectbr'")?;
                self.expect_punct(b'[', " to open the destinations of 'indirectbr'")?;
                let mut dests = Vec::new();
                while !self.is_punct(b']') {
                    if !dests.is_empty() {
                        self.expect_punct(b',', " between the destinations")?;
                    }
                    dests.push(self.label(f)?);
                }
                self.bump()?;
                Ok((Inst::IndirectBr { addr, dests }, Type::Void))
            }
            "ret" => {
                if self.eat_word("void")? {
                    return Ok((Inst::Ret { val: None }, Type::Void));
                }
                let val = self.operand(f)?;
                Ok((Inst::Ret { val: Some(val) }, Type::Void))
            }
            "unreachable" => Ok((Inst::Unreachable, Type::Void)),
            "cleanuppad" | "catchpad" | "catchswitch" | "catchret" | "cleanupret" => Err(self.err(
                op_span,
                format!(
                    "unsupported instruction '{op}': it is Windows exception handling (funclets); these targets \
                     unwind with 'invoke', 'landingpad' and 'resume'"
                ),
            )),
            _ if UNSUPPORTED_OPCODES.contains(&op) => Err(self.err(op_span, format!("unsupported instruction '{op}'"))),
            _ => Err(self.err(op_span, format!("expected an instruction opcode, found '{op}'"))),
        }
    }

    /// An atomic instruction's `[syncscope("...")] <ordering>`.
    fn ordering(&mut self) -> PResult<Ordering> {
        if self.eat_word("syncscope")? {
            self.expect_punct(b'(', " after 'syncscope'")?;
            self.string("a synchronisation scope")?;
            self.expect_punct(b')', " after the synchronisation scope")?;
        }
        let ordering = match self.tok.tok {
            Tok::Word("unordered") => Ordering::Unordered,
            Tok::Word("monotonic") => Ordering::Monotonic,
            Tok::Word("acquire") => Ordering::Acquire,
            Tok::Word("release") => Ordering::Release,
            Tok::Word("acq_rel") => Ordering::AcqRel,
            Tok::Word("seq_cst") => Ordering::SeqCst,
            _ => return Err(self.expected("a memory ordering")),
        };
        self.bump()?;
        Ok(ordering)
    }

    /// The `, idx, ...` of `extractvalue`/`insertvalue` into `ty`, and the member type they reach.
    fn member_indices(&mut self, ty: &Type, op: &str) -> PResult<(Vec<u32>, Type)> {
        let mut indices = Vec::new();
        let mut current = ty.clone();
        while self.is_punct(b',') && !matches!(self.peek()?.tok, Tok::Meta(_)) {
            self.bump()?;
            let span = self.tok.span;
            let index = self.unsigned("a member index")?;
            let member = u32::try_from(index).ok().and_then(|i| current.member(u64::from(i)).map(|m| m.0.clone()));
            let Some(member) = member else {
                return Err(self.err(span, format!("'{op}' index {index} is out of range for type '{current}'")));
            };
            indices.push(index as u32);
            current = member;
        }
        if indices.is_empty() {
            return Err(self.expected(&format!("a member index in '{op}'")));
        }
        Ok((indices, current))
    }

    /// `, align N` after load/store (metadata attachments are left for the caller).
    pub(super) fn trailing_align(&mut self) -> PResult<Option<u64>> {
        if self.is_punct(b',') && self.peek()?.tok == Tok::Word("align") {
            self.bump()?;
            self.bump()?;
            return Ok(Some(self.alignment()?));
        }
        Ok(None)
    }

    /// `call`, or `invoke` with its `to label %normal unwind label %pad` (`invoke`).
    pub(super) fn call(&mut self, f: &mut FnState<'a>, tail: TailKind, invoke: bool) -> PResult<(Inst, Type)> {
        self.flags(FAST_MATH)?;
        let cc = self.calling_convention()?;
        let ret_ext = self.non_parameter_attributes()?;
        let ret = self.ty()?;
        let explicit = if self.is_punct(b'(') { Some(self.function_type(ret.clone())?) } else { None };
        if self.is_word("asm") {
            if invoke {
                return Err(self.err(self.tok.span, "unsupported 'invoke' of inline asm"));
            }
            return self.clobber_asm(f, &ret, explicit.as_ref());
        }
        let drops_operands = matches!(self.tok.tok, Tok::Global(name) if Intrinsic::takes_metadata(name));
        // `llvm.assume`'s bundles ("align", "nonnull", ...) are facts for the optimiser: dropped.
        let assume = self.tok.tok == Tok::Global("llvm.assume");
        let point = match self.tok.tok {
            Tok::Global("llvm.experimental.stackmap") => Some(false),
            Tok::Global(name) if name.starts_with("llvm.experimental.patchpoint.") => Some(true),
            _ => None,
        };
        let callee = self.value(f, &Type::PTR)?;
        let mut args = Vec::new();
        let mut abi = Vec::new();
        let mut ext = Vec::new();
        if drops_operands {
            // Debug and alias-scope annotations: their `metadata` operands mean nothing to the code.
            if !self.is_punct(b'(') {
                return Err(self.expected("'(' to open the call arguments"));
            }
            self.skip_balanced()?;
        } else {
            self.expect_punct(b'(', " to open the call arguments")?;
        }
        if !self.is_punct(b')') && !drops_operands {
            loop {
                let ty = match point {
                    Some(patch_point) if self.is_word("i128") && is_live_operand(patch_point, &args) => {
                        self.recorded_i128()?
                    }
                    _ => self.value_type()?,
                };
                let aspan = self.tok.span;
                let ParamAttributes { abi: mut arg_abi, nest, hwreg, ext: arg_ext } = self.param_attributes()?;
                if arg_ext != Extension::None {
                    ext.resize(args.len(), Extension::None);
                    ext.push(arg_ext);
                }
                if let Some((reference, span)) = hwreg {
                    arg_abi = ParamAbi::Register(self.register_names(&reference, "hwreg", span)?.remove(0));
                }
                if let (Some(span), false) = (nest, matches!(callee, Value::Func(_))) {
                    return Err(self.err(span, "'nest' arguments are supported in direct calls only"));
                }
                if let Some(span) = nest {
                    // A patch point passes its arguments as the call site's attributes say.
                    if arg_abi != ParamAbi::Plain || ty != Type::PTR {
                        return Err(self.err(span, "a 'nest' argument is a 'ptr' with no other attribute"));
                    }
                    if abi.contains(&ParamAbi::Nest) {
                        return Err(self.err(span, "more than one 'nest' argument"));
                    }
                    arg_abi = ParamAbi::Nest;
                }
                if arg_abi != ParamAbi::Plain {
                    if ty != Type::PTR && !matches!(arg_abi, ParamAbi::Register(_)) {
                        return Err(self.err(
                            aspan,
                            format!("'byval', 'sret' and 'elementtype' apply to 'ptr' arguments, not '{ty}'"),
                        ));
                    }
                    abi.resize(args.len(), ParamAbi::Plain);
                    abi.push(arg_abi);
                }
                let value = self.value(f, &ty)?;
                args.push(Operand { ty, value });
                if !self.eat_punct(b',')? {
                    break;
                }
            }
        }
        if !drops_operands {
            self.expect_punct(b')', " to close the call arguments")?;
        }
        // Call-site function attributes: anything up to the next instruction or attachment.
        let mut bundles = Vec::new();
        let mut directives = StatepointDirectives::default();
        loop {
            match self.tok.tok {
                Tok::Punct(b'[') if bundles.is_empty() && assume => {
                    self.bundles(f, true)?;
                }
                Tok::Punct(b'[') if bundles.is_empty() => bundles = self.bundles(f, false)?,
                Tok::Str(key @ (StatepointDirectives::ID | StatepointDirectives::PATCH_BYTES)) => {
                    let span = self.tok.span;
                    self.bump()?;
                    self.expect_punct(b'=', format_args!(" after \"{key}\""))?;
                    self.statepoint_directive(span, key, &mut directives)?;
                }
                Tok::Word("noclobber") => {
                    return Err(self.err(
                        self.tok.span,
                        "'noclobber' belongs on an explicitcc function's definition or declaration, not on a call",
                    ));
                }
                Tok::AttrGroup(group) => {
                    if let Some(d) = self.statepoint_groups.get(group) {
                        directives.merge(d);
                    }
                    self.bump()?;
                }
                _ => {
                    if !self.skip_attribute(|w| !(is_opcode(w) || (invoke && w == "to")))? {
                        break;
                    }
                }
            }
        }
        let directives = (directives != StatepointDirectives::default()).then(|| Box::new(directives));
        let invoke = if invoke {
            self.expect_word("to", " after the arguments of 'invoke'")?;
            let normal = self.label(f)?;
            self.expect_word("unwind", " after the normal destination of 'invoke'")?;
            let unwind = self.label(f)?;
            Some(InvokeDests { normal, unwind })
        } else {
            None
        };
        let mut sig = explicit.unwrap_or_else(|| Signature {
            ret: ret.clone(),
            params: args.iter().map(|a| a.ty.clone()).collect(),
            varargs: false,
            abi: Box::default(),
            ext: Default::default(),
        });
        sig.abi = abi.into_boxed_slice();
        sig.ext = Extensions { params: ext.into_boxed_slice(), ret: ret_ext };
        Ok((Inst::Call { cc, callee, sig, args, tail, bundles: bundles.into_boxed_slice(), directives, invoke }, ret))
    }

    /// The type `i128` of a stack map's or patch point's live operand, which must be a constant:
    /// llc-19 records its low 64 bits as it records an `i64` (issue 55609 of llvm-project) and
    /// cannot select a live `i128` value there (`Cannot select: ... i128 = build_pair`).
    fn recorded_i128(&mut self) -> PResult<Type> {
        self.bump()?;
        if matches!(self.tok.tok, Tok::Local(_) | Tok::Global(_)) {
            return Err(self.err(
                self.tok.span,
                "unsupported i128 live value: only i128 constants are recorded (their low 64 bits, as llc-19 \
                 records them; llc-19 cannot select an i128 value there)",
            ));
        }
        Ok(Type::Int(128))
    }

    /// `asm [sideeffect] "", "~{reg},...,={reg},{reg},..."(T %in, ...)` from `asm`, in a call
    /// returning `ret`: the only inline asm the subset takes, a template that is empty or only
    /// `nop`s, with clobbers; an empty one may also have one register output and register inputs
    /// (see [`Inst::ClobberAsm`]). Anything else is an error at what is not supported.
    fn clobber_asm(&mut self, f: &mut FnState<'a>, ret: &Type, explicit: Option<&Signature>) -> PResult<(Inst, Type)> {
        let asm = self.tok.span;
        self.bump()?;
        while matches!(self.tok.tok, Tok::Word("sideeffect" | "alignstack" | "inteldialect" | "unwind")) {
            self.bump()?;
        }
        let template = self.tok.span;
        let Some(nops) = nop_count(&self.string(" (the inline asm template)")?) else {
            return Err(self.err(
                template,
                "unsupported inline asm: only a template that is empty or only 'nop's, with clobbers \
                 (\"nop\", \"~{reg},...\"), is supported",
            ));
        };
        self.expect_punct(b',', " after the inline asm template")?;
        let Tok::Str(raw) = self.tok.tok else { return Err(self.expected("the inline asm constraint string")) };
        let constraints = self.tok.span;
        self.bump()?;
        let (mut clobbers, mut outputs, mut input_names) = (Vec::new(), Vec::new(), Vec::new());
        // Each constraint's column: the string's, after its quote, plus the text before it.
        let mut col = constraints.col + 1;
        for piece in raw.split(',').filter(|_| !raw.is_empty()) {
            let span = Span::new(constraints.line, col);
            col += piece.len() as u32 + 1;
            let (list, braced) = match piece.as_bytes().first() {
                Some(b'~') => (&mut clobbers, &piece[1..]),
                Some(b'=') => (&mut outputs, &piece[1..]),
                _ => (&mut input_names, piece),
            };
            let Some(name) = braced.strip_prefix('{').and_then(|p| p.strip_suffix('}')).filter(|n| !n.is_empty())
            else {
                return Err(self.err(
                    span,
                    format!(
                        "unsupported inline asm constraint '{piece}': only clobbers ('~{{reg}}'), register outputs \
                         ('={{reg}}') and register inputs ('{{reg}}') are supported"
                    ),
                ));
            };
            list.push(RegisterName { name: name.to_ascii_lowercase(), span });
        }
        if let (Some(first), true) = (outputs.first(), nops > 0) {
            return Err(self.err(
                first.span,
                "unsupported inline asm output with a non-empty template: patchmap cannot run the asm's \
                 code, and what it leaves in the register is what the program reads",
            ));
        }
        if let Some(second) = outputs.get(1) {
            return Err(self.err(second.span, "unsupported inline asm with more than one output"));
        }
        let output = outputs.pop();
        let params_fit = |n: usize| explicit.is_none_or(|s| s.params.len() == n && !s.varargs);
        if output.is_none() && *ret != Type::Void || output.is_some() && *ret == Type::Void {
            return Err(self.err(asm, "inline asm returns a value exactly when it has an output constraint ('={reg}')"));
        }
        if !params_fit(input_names.len()) {
            return Err(self.err(asm, "inline asm's function type must take one parameter per input constraint"));
        }
        self.expect_punct(b'(', " to open the inline asm's arguments")?;
        let mut inputs = Vec::new();
        for name in input_names {
            if !inputs.is_empty() {
                self.expect_punct(b',', " between the inline asm's arguments")?;
            }
            let ty = self.value_type()?;
            let value = self.value(f, &ty)?;
            inputs.push((name, Operand { ty, value }));
        }
        if !self.is_punct(b')') {
            return Err(self.err(self.tok.span, "inline asm takes one argument per input constraint ('{reg}')"));
        }
        self.bump()?;
        loop {
            match self.tok.tok {
                Tok::AttrGroup(_) => {
                    self.bump()?;
                }
                _ => {
                    if !self.skip_attribute(|w| !is_opcode(w))? {
                        break;
                    }
                }
            }
        }
        Ok((Inst::ClobberAsm { clobbers, nops, output, inputs }, ret.clone()))
    }

    /// The parameter list of a function type after its result type `ret`, from `(`.
    pub(super) fn function_type(&mut self, ret: Type) -> PResult<Signature> {
        self.expect_punct(b'(', " to open the function type")?;
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
                // Attributes in a function type mean nothing; the arguments' own count.
                self.non_parameter_attributes()?;
                if !self.eat_punct(b',')? {
                    break;
                }
            }
        }
        self.expect_punct(b')', " to close the function type")?;
        Ok(Signature { ret, params, varargs, abi: Box::default(), ext: Default::default() })
    }

    /// `[ "tag"(T v, ...), ... ]` after a call's arguments; `any_tag`: `llvm.assume`'s, whose
    /// bundles of any tag are read and dropped.
    fn bundles(&mut self, f: &mut FnState<'a>, any_tag: bool) -> PResult<Vec<Bundle>> {
        self.expect_punct(b'[', "")?;
        let mut bundles = Vec::new();
        loop {
            let span = self.tok.span;
            let name = self.string("an operand bundle tag")?;
            let tag = match BundleTag::ALL.iter().find(|(_, n)| *n == name) {
                Some(&(tag, _)) => Some(tag),
                None if any_tag => None,
                None => {
                    return Err(self.err(
                        span,
                        format!("unsupported operand bundle '{name}' (the subset knows deopt, gc-live, gc-transition)"),
                    ));
                }
            };
            if tag.is_some_and(|tag| bundles.iter().any(|b: &Bundle| b.tag == tag)) {
                return Err(self.err(span, format!("more than one '{name}' operand bundle")));
            }
            self.expect_punct(b'(', " after the operand bundle tag")?;
            let mut operands = Vec::new();
            if !self.is_punct(b')') {
                loop {
                    operands.push(self.operand(f)?);
                    if !self.eat_punct(b',')? {
                        break;
                    }
                }
            }
            self.expect_punct(b')', " to close the operand bundle")?;
            if let Some(tag) = tag.filter(|_| !any_tag) {
                bundles.push(Bundle { tag, operands });
            }
            if !self.eat_punct(b',')? {
                break;
            }
        }
        self.expect_punct(b']', " to close the operand bundles")?;
        Ok(bundles)
    }

    // ---- types and values ----
}

pub(super) fn cast_op(op: &str) -> Option<CastOp> {
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
        "addrspacecast" => CastOp::AddrSpaceCast,
        "inttoptr" => CastOp::IntToPtr,
        _ => return None,
    })
}

pub(super) fn int_pred(w: &str) -> Option<IntPred> {
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

pub(super) fn float_pred(w: &str) -> Option<FloatPred> {
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

/// Whether the next argument of a stack map (`patch_point` false) or patch point call, after `args`,
/// is one of the live values its record locates: past the fixed operands and a patch point's
/// NUMARGS call arguments.
fn is_live_operand(patch_point: bool, args: &[Operand]) -> bool {
    if !patch_point {
        return args.len() >= 2;
    }
    match args.get(3).map(|a| &a.value) {
        Some(Value::Const(Const::Int(n))) => usize::try_from(*n).is_ok_and(|n| args.len() >= 4 + n),
        _ => false,
    }
}

/// How many `nop` instructions an inline asm template is, if it is nothing else: statements
/// separated by `;` or newlines (`\0A`), each `nop` in any case with blanks around it, or empty, as
/// LLVM's assemblers for both targets read them.
fn nop_count(template: &str) -> Option<u32> {
    let mut nops = 0u32;
    for statement in template.split([';', '\n']) {
        match statement.trim_matches([' ', '\t', '\r']) {
            "" => {}
            s if s.eq_ignore_ascii_case("nop") => nops = nops.checked_add(1)?,
            _ => return None,
        }
    }
    Some(nops)
}

/// Whether `ty` is `{ ptr, i32 }`, the value of a landing pad on these targets.
fn is_landing_pad_type(ty: &Type) -> bool {
    matches!(ty, Type::Struct(s) if !s.packed && s.fields.as_deref() == Some(&[Type::PTR, Type::I32][..]))
}
