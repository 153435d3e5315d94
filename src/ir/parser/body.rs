//! Function bodies and local names: blocks, forward references resolved at the end of a function,
//! labels, operands and values.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn body(&mut self, f: &mut FnState<'a>, function: &str) -> PResult<()> {
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
            if f.locals.insert(key, Local::Block).is_some() {
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

    pub(super) fn block_slot(&mut self, f: &mut FnState<'a>, name: Key<'a>, span: Span) -> u32 {
        let next = f.slots.len() as u32;
        let slot = *f.block_slot.entry(name).or_insert(next);
        if slot == next {
            f.slots.push((None, span, name));
        }
        slot
    }

    /// Patches forward references once the whole function is read.
    pub(super) fn resolve(&mut self, f: &mut FnState<'a>) -> PResult<()> {
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

    pub(super) fn define_local(&mut self, f: &mut FnState<'a>, name: Key<'a>, id: InstId, span: Span) -> PResult<()> {
        if f.locals.insert(name, Local::Inst(id)).is_some() {
            return Err(self.err(span, format!("redefinition of '%{name}'")));
        }
        Ok(())
    }

    pub(super) fn label(&mut self, f: &mut FnState<'a>) -> PResult<BlockId> {
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
    pub(super) fn operand(&mut self, f: &mut FnState<'a>) -> PResult<Operand> {
        let ty = self.value_type()?;
        let value = self.value(f, &ty)?;
        Ok(Operand { ty, value })
    }

    /// A value of type `ty`: a local, a global's address, or a constant. Records its position.
    pub(super) fn value(&mut self, f: &mut FnState<'a>, ty: &Type) -> PResult<Value> {
        let span = self.tok.span;
        f.spans.push(span);
        match self.tok.tok {
            Tok::Local(raw) => {
                self.bump()?;
                let n = Key::of(raw);
                let (value, found) = match f.locals.get(&n).copied() {
                    Some(Local::Param(i)) => (Value::Param(i), &f.params[i as usize].ty),
                    Some(Local::Inst(id)) => (Value::Inst(id), &f.insts[id.0 as usize].ty),
                    Some(Local::Block) => {
                        return Err(self.err(span, format!("'%{n}' is a block label, not a value")));
                    }
                    None => {
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
                if *ty != Type::PTR {
                    return Err(self.err(span, format!("'@{n}' is a pointer but '{ty}' is expected")));
                }
                Ok(match sym {
                    Symbol::Global(g) => Value::Global(g),
                    Symbol::Func(func) => Value::Func(func),
                })
            }
            // A pointer cast of a global or function is its address, as an operand names it.
            Tok::Word("bitcast" | "addrspacecast") if ty.is_ptr() => Ok(match self.constant(ty)? {
                Const::Address(Symbol::Global(g), 0) if *ty == Type::PTR => Value::Global(g),
                Const::Address(Symbol::Func(func), 0) if *ty == Type::PTR => Value::Func(func),
                c => Value::Const(c),
            }),
            _ => Ok(Value::Const(self.constant(ty)?)),
        }
    }
}
