//! Elaboration phase: lowers EGraph back to sequences of operations
//! in CFG nodes.

use super::Stats;
use super::cost::Cost;
use crate::ctxhash::NullCtx;
use crate::dominator_tree::DominatorTree;
use crate::inst_predicates::is_pure_for_egraph;
use crate::ir::{Block, Function, Inst, InstructionData, Opcode, Value, ValueDef};
use crate::loop_analysis::{Loop, LoopAnalysis};
use crate::scoped_hash_map::ScopedHashMap;
use crate::trace;
use crate::{FxHashMap, FxHashSet};
use alloc::vec::Vec;
use cranelift_control::ControlPlane;
use cranelift_entity::{EntitySet, SecondaryMap, packed_option::ReservedValue};
use smallvec::{SmallVec, smallvec};

pub(crate) struct Elaborator<'a> {
    func: &'a mut Function,
    domtree: &'a DominatorTree,
    loop_analysis: &'a LoopAnalysis,
    /// Map from Value that is produced by a pure Inst (and was thus
    /// not in the side-effecting skeleton) to the value produced by
    /// an elaborated inst (placed in the layout) to whose results we
    /// refer in the final code.
    ///
    /// The first time we use some result of an instruction during
    /// elaboration, we can place it and insert an identity map (inst
    /// results to that same inst's results) in this scoped
    /// map. Within that block and its dom-tree children, that mapping
    /// is visible and we can continue to use it. This allows us to
    /// avoid cloning the instruction. However, if we pop that scope
    /// and use it somewhere else as well, we will need to
    /// duplicate. We detect this case by checking, when a value that
    /// we want is not present in this map, whether the producing inst
    /// is already placed in the Layout. If so, we duplicate, and
    /// insert non-identity mappings from the original inst's results
    /// to the cloned inst's results.
    ///
    /// Note that as values may refer to unions that represent a subset
    /// of a larger eclass, it's not valid to walk towards the root of a
    /// union tree: doing so would potentially equate values that fall
    /// on different branches of the dominator tree.
    value_to_elaborated_value: ScopedHashMap<Value, ElaboratedValue>,
    /// Map from Value to the best (lowest-cost) Value in its eclass
    /// (tree of union value-nodes).
    value_to_best_value: SecondaryMap<Value, BestEntry>,
    /// Stack of blocks and loops in current elaboration path.
    loop_stack: SmallVec<[LoopStackEntry; 8]>,
    /// The current block into which we are elaborating.
    cur_block: Block,
    /// Values that opt rules have indicated should be rematerialized
    /// in every block they are used (e.g., immediates or other
    /// "cheap-to-compute" ops).
    remat_values: &'a FxHashSet<Value>,
    /// Explicitly-unrolled value elaboration stack.
    elab_stack: Vec<ElabStackEntry>,
    /// Results from the elab stack.
    elab_result_stack: Vec<ElaboratedValue>,
    /// Explicitly-unrolled block elaboration stack.
    block_stack: Vec<BlockStackEntry>,
    /// Copies of values that have been rematerialized.
    remat_copies: FxHashMap<(Block, Value), Value>,
    /// Where float constants used in loops without calls are kept.
    loop_float_constants: LoopFloatConstants,
    /// Stats for various events during egraph processing, to help
    /// with optimization of this infrastructure.
    stats: &'a mut Stats,
    /// Chaos-mode control-plane so we can test that we still get
    /// correct results when our heuristics make bad decisions.
    ctrl_plane: &'a mut ControlPlane,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BestEntry(Cost, Value);

/// Float constants used in a loop without calls are loaded once, in
/// the hoist block of the outermost such loop around the use, and kept
/// in a register through it, as LLVM's machine LICM does, instead of
/// being rematerialized (a constant-pool load on x64) in every block of
/// the loop that uses them. Across a call a register would be saved and
/// restored around it (no float register is callee-saved on x64), so
/// loops with calls keep rematerializing them; and at most
/// `MAX_KEPT_FLOAT_CONSTANTS` are kept per loop, so a loop of many
/// constants (a product with a constant matrix) keeps using them from
/// memory rather than spilling. Zero is never kept: it is one
/// dependency-breaking instruction wherever it is used.
struct LoopFloatConstants {
    /// Loops that contain a call or a `clobber`, with the loops around them.
    with_calls: EntitySet<Loop>,
    /// How many float constants each loop keeps.
    kept: SecondaryMap<Loop, u8>,
}

/// See `LoopFloatConstants`.
const MAX_KEPT_FLOAT_CONSTANTS: u8 = 4;

impl LoopFloatConstants {
    fn new(func: &Function, loop_analysis: &LoopAnalysis) -> Self {
        let mut with_calls = EntitySet::new();
        for block in func.layout.blocks() {
            let calls = func.layout.block_insts(block).any(|inst| {
                let opcode = func.dfg.insts[inst].opcode();
                opcode.is_call() || opcode == Opcode::Clobber
            });
            if calls {
                let mut lp = loop_analysis.innermost_loop(block);
                while let Some(l) = lp {
                    if !with_calls.insert(l) {
                        break;
                    }
                    lp = loop_analysis.loop_parent(l);
                }
            }
        }
        Self {
            with_calls,
            kept: SecondaryMap::new(),
        }
    }

    /// The block where float constant `value`, used in `block`, is
    /// to be kept, if it is one and `block` is in a loop without calls.
    fn block_for(
        &mut self,
        func: &Function,
        remat_copies: &FxHashMap<(Block, Value), Value>,
        loop_stack: &[LoopStackEntry],
        loop_analysis: &LoopAnalysis,
        block: Block,
        value: Value,
    ) -> Option<Block> {
        let inst = func.dfg.value_def(value).inst()?;
        let zero = match func.dfg.insts[inst] {
            InstructionData::UnaryIeee32 {
                opcode: Opcode::F32const,
                imm,
            } => imm.bits() == 0,
            InstructionData::UnaryIeee64 {
                opcode: Opcode::F64const,
                imm,
            } => imm.bits() == 0,
            _ => return None,
        };
        if zero {
            return None;
        }
        let entry = loop_stack.iter().find(|entry| {
            loop_analysis.is_in_loop(block, entry.lp) && !self.with_calls.contains(entry.lp)
        })?;
        if remat_copies.contains_key(&(entry.hoist_block, value)) {
            return Some(entry.hoist_block);
        }
        if self.kept[entry.lp] == MAX_KEPT_FLOAT_CONSTANTS {
            return None;
        }
        self.kept[entry.lp] += 1;
        Some(entry.hoist_block)
    }
}

impl PartialOrd for BestEntry {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BestEntry {
    #[inline]
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.0.cmp(&other.0).then_with(|| {
            // Note that this comparison is reversed. When costs are equal,
            // prefer the value with the bigger index. This is a heuristic that
            // prefers results of rewrites to the original value, since we
            // expect that our rewrites are generally improvements.
            self.1.cmp(&other.1).reverse()
        })
    }
}

#[derive(Clone, Copy, Debug)]
struct ElaboratedValue {
    in_block: Block,
    value: Value,
}

#[derive(Clone, Debug)]
struct LoopStackEntry {
    /// The loop identifier.
    lp: Loop,
    /// The hoist point: a block that immediately dominates this
    /// loop. May not be an immediate predecessor, but will be a valid
    /// point to place all loop-invariant ops: they must depend only
    /// on inputs that dominate the loop, so are available at (the end
    /// of) this block.
    hoist_block: Block,
    /// The depth in the scope map.
    scope_depth: u32,
}

#[derive(Clone, Debug)]
enum ElabStackEntry {
    /// Next action is to resolve this value into an elaborated inst
    /// (placed into the layout) that produces the value, and
    /// recursively elaborate the insts that produce its args.
    ///
    /// Any inserted ops should be inserted before `before`, which is
    /// the instruction demanding this value.
    Start { value: Value, before: Inst },
    /// Args have been pushed; waiting for results.
    PendingInst {
        inst: Inst,
        result_idx: usize,
        num_args: usize,
        before: Inst,
    },
}

#[derive(Clone, Debug)]
enum BlockStackEntry {
    Elaborate { block: Block, idom: Option<Block> },
    Pop,
}

impl<'a> Elaborator<'a> {
    pub(crate) fn new(
        func: &'a mut Function,
        domtree: &'a DominatorTree,
        loop_analysis: &'a LoopAnalysis,
        remat_values: &'a FxHashSet<Value>,
        stats: &'a mut Stats,
        ctrl_plane: &'a mut ControlPlane,
    ) -> Self {
        let num_values = func.dfg.num_values();
        let loop_float_constants = LoopFloatConstants::new(func, loop_analysis);
        let mut value_to_best_value =
            SecondaryMap::with_default(BestEntry(Cost::infinity(), Value::reserved_value()));
        value_to_best_value.resize(num_values);
        Self {
            func,
            domtree,
            loop_analysis,
            value_to_elaborated_value: ScopedHashMap::with_capacity(num_values),
            value_to_best_value,
            loop_stack: smallvec![],
            cur_block: Block::reserved_value(),
            remat_values,
            elab_stack: vec![],
            elab_result_stack: vec![],
            block_stack: vec![],
            remat_copies: FxHashMap::default(),
            loop_float_constants,
            stats,
            ctrl_plane,
        }
    }

    fn start_block(&mut self, idom: Option<Block>, block: Block) {
        trace!(
            "start_block: block {:?} with idom {:?} at loop depth {:?} scope depth {}",
            block,
            idom,
            self.loop_stack.len(),
            self.value_to_elaborated_value.depth()
        );

        // Pop any loop levels we're no longer in.
        while let Some(inner_loop) = self.loop_stack.last() {
            if self.loop_analysis.is_in_loop(block, inner_loop.lp) {
                break;
            }
            self.loop_stack.pop();
        }

        // Note that if the *entry* block is a loop header, we will
        // not make note of the loop here because it will not have an
        // immediate dominator. We must disallow this case because we
        // will skip adding the `LoopStackEntry` here but our
        // `LoopAnalysis` will otherwise still make note of this loop
        // and loop depths will not match.
        if let Some(idom) = idom {
            if let Some(lp) = self.loop_analysis.is_loop_header(block) {
                self.loop_stack.push(LoopStackEntry {
                    lp,
                    // Any code hoisted out of this loop will have code
                    // placed in `idom`, and will have def mappings
                    // inserted in to the scoped hashmap at that block's
                    // level.
                    hoist_block: idom,
                    scope_depth: (self.value_to_elaborated_value.depth() - 1) as u32,
                });
                trace!(
                    " -> loop header, pushing; depth now {}",
                    self.loop_stack.len()
                );
            }
        } else {
            debug_assert!(
                self.loop_analysis.is_loop_header(block).is_none(),
                "Entry block (domtree root) cannot be a loop header!"
            );
        }

        trace!("block {}: loop stack is {:?}", block, self.loop_stack);

        self.cur_block = block;
    }

    fn topo_sorted_values(&self) -> Vec<Value> {
        #[derive(Debug)]
        enum Event {
            Enter,
            Exit,
        }
        let mut stack = Vec::<(Event, Value)>::new();

        // Traverse the CFG in pre-order so that, when we look at the
        // instructions and operands inside each block, we see value defs before
        // uses.
        for block in crate::traversals::Dfs::new().pre_order_iter(&self.func) {
            for inst in self.func.layout.block_insts(block) {
                stack.extend(self.func.dfg.inst_values(inst).map(|v| (Event::Enter, v)));
            }
        }

        // We pushed in the desired order, so popping would implicitly reverse
        // that. Avoid that by reversing the initial stack before we start
        // traversing the DFG.
        stack.reverse();

        let mut sorted = Vec::with_capacity(self.func.dfg.values().len());
        let mut seen = EntitySet::<Value>::with_capacity(self.func.dfg.values().len());

        // Post-order traversal of the DFG, visiting value defs before uses.
        while let Some((event, value)) = stack.pop() {
            match event {
                Event::Enter => {
                    if seen.insert(value) {
                        stack.push((Event::Exit, value));
                        match self.func.dfg.value_def(value) {
                            ValueDef::Result(inst, _) => {
                                stack.extend(
                                    self.func
                                        .dfg
                                        .inst_values(inst)
                                        .rev()
                                        .filter(|v| !seen.contains(*v))
                                        .map(|v| (Event::Enter, v)),
                                );
                            }
                            ValueDef::Union(a, b) => {
                                if !seen.contains(b) {
                                    stack.push((Event::Enter, b));
                                }
                                if !seen.contains(a) {
                                    stack.push((Event::Enter, a));
                                }
                            }
                            ValueDef::Param(..) => {}
                        }
                    }
                }
                Event::Exit => {
                    sorted.push(value);
                }
            }
        }

        sorted
    }

    fn compute_best_values(&mut self) {
        let sorted_values = self.topo_sorted_values();

        let best = &mut self.value_to_best_value;

        // We can't make random decisions inside the fixpoint loop below because
        // that could cause values to change on every iteration of the loop,
        // which would make the loop never terminate. So in chaos testing
        // mode we need a form of making suboptimal decisions that is fully
        // deterministic. We choose to simply make the worst decision we know
        // how to do instead of the best.
        let use_worst = self.ctrl_plane.get_decision();

        trace!(
            "Computing the {} values for each eclass",
            if use_worst {
                "worst (chaos mode)"
            } else {
                "best"
            }
        );

        // Because the values are topologically sorted, we know that we will see
        // defs before uses, so an instruction's operands' costs will already be
        // computed by the time we are computing the cost for the current value
        // and its instruction.
        for value in sorted_values.iter().copied() {
            let def = self.func.dfg.value_def(value);
            trace!("computing best for value {:?} def {:?}", value, def);

            match def {
                // Pick the best of the two options based on min-cost. This
                // works because each element of `best` is a `(cost, value)`
                // tuple; `cost` comes first so the natural comparison works
                // based on cost, and breaks ties based on value number.
                ValueDef::Union(x, y) => {
                    debug_assert!(!best[x].1.is_reserved_value());
                    debug_assert!(!best[y].1.is_reserved_value());
                    best[value] = if use_worst {
                        core::cmp::max(best[x], best[y])
                    } else {
                        core::cmp::min(best[x], best[y])
                    };
                    trace!(
                        " -> best of union({:?}, {:?}) = {:?}",
                        best[x], best[y], best[value]
                    );
                }

                ValueDef::Param(_, _) => {
                    best[value] = BestEntry(Cost::zero(), value);
                }

                // If the Inst is inserted into the layout (which is,
                // at this point, only the side-effecting skeleton),
                // then it must be computed and thus we give it zero
                // cost.
                ValueDef::Result(inst, _) => {
                    if let Some(_) = self.func.layout.inst_block(inst) {
                        best[value] = BestEntry(Cost::zero(), value);
                    } else {
                        let inst_data = &self.func.dfg.insts[inst];
                        // N.B.: at this point we know that the opcode is
                        // pure, so `pure_op_cost`'s precondition is
                        // satisfied.
                        let cost = Cost::of_pure_op(
                            inst_data.opcode(),
                            self.func.dfg.inst_values(inst).map(|value| {
                                debug_assert!(!best[value].1.is_reserved_value());
                                best[value].0
                            }),
                        );
                        best[value] = BestEntry(cost, value);
                        trace!(" -> cost of value {} = {:?}", value, cost);
                    }
                }
            };

            // You might be expecting an assert that the best cost we just
            // computed is not infinity, however infinite cost *can* happen in
            // practice. First, note that our cost function doesn't know about
            // any shared structure in the dataflow graph, it only sums operand
            // costs. (And trying to avoid that by deduping a single operation's
            // operands is a losing game because you can always just add one
            // indirection and go from `add(x, x)` to `add(foo(x), bar(x))` to
            // hide the shared structure.) Given that blindness to sharing, we
            // can make cost grow exponentially with a linear sequence of
            // operations:
            //
            //     v0 = iconst.i32 1    ;; cost = 1
            //     v1 = iadd v0, v0     ;; cost = 3 + 1 + 1
            //     v2 = iadd v1, v1     ;; cost = 3 + 5 + 5
            //     v3 = iadd v2, v2     ;; cost = 3 + 13 + 13
            //     v4 = iadd v3, v3     ;; cost = 3 + 29 + 29
            //     v5 = iadd v4, v4     ;; cost = 3 + 61 + 61
            //     v6 = iadd v5, v5     ;; cost = 3 + 125 + 125
            //     ;; etc...
            //
            // Such a chain can cause cost to saturate to infinity. How do we
            // choose which e-node is best when there are multiple that have
            // saturated to infinity? It doesn't matter. As long as invariant
            // (2) for optimization rules is upheld by our rule set (see
            // `cranelift/codegen/src/opts/README.md`) it is safe to choose
            // *any* e-node in the e-class. At worst we will produce suboptimal
            // code, but never an incorrectness.
        }
    }

    /// Elaborate use of an eclass, inserting any needed new
    /// instructions before the given inst `before`. Should only be
    /// given values corresponding to results of instructions or
    /// blockparams.
    fn elaborate_eclass_use(&mut self, value: Value, before: Inst) -> ElaboratedValue {
        debug_assert_ne!(value, Value::reserved_value());

        // Kick off the process by requesting this result
        // value.
        self.elab_stack
            .push(ElabStackEntry::Start { value, before });

        // Now run the explicit-stack recursion until we reach
        // the root.
        self.process_elab_stack();
        debug_assert_eq!(self.elab_result_stack.len(), 1);
        self.elab_result_stack.pop().unwrap()
    }

    /// The outermost loop level at which `value`, an argument of an
    /// instruction being placed, is available: the position in
    /// `loop_stack` of the first loop that does not contain the block
    /// defining it, or the stack's length if every loop does. The
    /// instruction can be hoisted to that loop's hoist block.
    ///
    /// A rematerialized value is copied to wherever its user goes
    /// (`maybe_remat_arg`), together with the constants it uses, so it
    /// is as invariant as its other arguments. Where it was placed
    /// first says nothing about that: a constant without arguments is
    /// placed in the hoist block of the innermost loop around its first
    /// use, and an `x | K` with it. Counting those blocks kept, e.g., a
    /// conversion of `(r & 1) | 120` and the division by it inside the
    /// innermost loop around their first use, although `r` is an outer
    /// loop's variable.
    fn arg_hoist_level(&self, value: ElaboratedValue) -> usize {
        let level = |block: Block| {
            self.loop_stack
                .iter()
                .position(|loop_entry| !self.loop_analysis.is_in_loop(block, loop_entry.lp))
                .unwrap_or(self.loop_stack.len())
        };
        if !self.remat_values.contains(&value.value) {
            return level(value.in_block);
        }
        let ValueDef::Result(inst, _) = self.func.dfg.value_def(value.value) else {
            return level(value.in_block);
        };
        let mut deepest = 0;
        for arg in self.func.dfg.inst_values(inst) {
            if is_remat_constant(self.remat_values, self.func, arg) {
                continue;
            }
            // Rematerialized values are copied one level deep: an
            // argument that is itself rematerialized (other than a
            // constant) stays where it is, and so does this value.
            if self.remat_values.contains(&arg) {
                return level(value.in_block);
            }
            match value_block(self.func, arg) {
                Some(block) => deepest = deepest.max(level(block)),
                None => return level(value.in_block),
            }
        }
        deepest
    }

    /// Possibly rematerialize the instruction producing the value in
    /// `arg` and rewrite `arg` to refer to it, if needed. Returns
    /// `true` if a rewrite occurred.
    fn maybe_remat_arg(
        remat_values: &FxHashSet<Value>,
        func: &mut Function,
        remat_copies: &mut FxHashMap<(Block, Value), Value>,
        loop_float_constants: &mut LoopFloatConstants,
        loop_stack: &[LoopStackEntry],
        loop_analysis: &LoopAnalysis,
        insert_block: Block,
        before: Inst,
        arg: &mut ElaboratedValue,
        stats: &mut Stats,
    ) -> bool {
        // TODO (#7313): we may want to consider recursive
        // rematerialization as well. We could process the arguments of
        // the rematerialized instruction up to a certain depth. This
        // would affect, e.g., adds-with-one-constant-arg, which are
        // currently rematerialized. Right now we don't do this, to
        // avoid the need for another fixpoint loop here.
        if arg.in_block != insert_block && remat_values.contains(&arg.value) {
            let kept_in = loop_float_constants.block_for(
                func,
                remat_copies,
                loop_stack,
                loop_analysis,
                insert_block,
                arg.value,
            );
            let (block, before) = match kept_in {
                Some(block) => (block, func.layout.last_inst(block).unwrap()),
                None => (insert_block, before),
            };
            if arg.in_block == block {
                // Kept where it is; noted so that it is counted once.
                remat_copies.insert((block, arg.value), arg.value);
                return false;
            }
            let new_value =
                Self::remat_copy(remat_values, func, remat_copies, block, before, arg.value);
            trace!("rematerialized {} as {}", arg.value, new_value);
            arg.value = new_value;
            stats.elaborate_remat += 1;
            true
        } else {
            false
        }
    }

    /// The copy of rematerialized `value` in `block` (before
    /// `before`), made if there is none yet. The constants its
    /// instruction uses are copied with it where they are defined in
    /// another block: `arg_hoist_level` does not count where they are,
    /// so they may not dominate `block`.
    fn remat_copy(
        remat_values: &FxHashSet<Value>,
        func: &mut Function,
        remat_copies: &mut FxHashMap<(Block, Value), Value>,
        block: Block,
        before: Inst,
        value: Value,
    ) -> Value {
        if let Some(&copy) = remat_copies.get(&(block, value)) {
            return copy;
        }
        let inst = func.dfg.value_def(value).inst().unwrap();
        debug_assert_eq!(func.dfg.inst_results(inst).len(), 1);
        let new_inst = func.dfg.clone_inst(inst);
        let args: SmallVec<[Value; 4]> = func.dfg.inst_values(new_inst).collect();
        let mut copied_args: SmallVec<[(Value, Value); 2]> = smallvec![];
        for arg in args {
            if is_remat_constant(remat_values, func, arg)
                && value_block(func, arg) != Some(block)
            {
                let copy = Self::remat_copy(remat_values, func, remat_copies, block, before, arg);
                copied_args.push((arg, copy));
            }
        }
        if !copied_args.is_empty() {
            func.dfg.map_inst_values(new_inst, |arg| {
                copied_args
                    .iter()
                    .find(|&&(from, _)| from == arg)
                    .map_or(arg, |&(_, to)| to)
            });
        }
        func.layout.insert_inst(new_inst, before);
        let new_result = func.dfg.inst_results(new_inst)[0];
        remat_copies.insert((block, value), new_result);
        new_result
    }

    fn process_elab_stack(&mut self) {
        while let Some(entry) = self.elab_stack.pop() {
            match entry {
                ElabStackEntry::Start { value, before } => {
                    debug_assert!(self.func.dfg.value_is_real(value));

                    self.stats.elaborate_visit_node += 1;

                    // Get the best option; we use `value` (latest
                    // value) here so we have a full view of the
                    // eclass.
                    trace!("looking up best value for {}", value);
                    let BestEntry(_, best_value) = self.value_to_best_value[value];
                    trace!("elaborate: value {} -> best {}", value, best_value);
                    debug_assert_ne!(best_value, Value::reserved_value());

                    if let Some(elab_val) =
                        self.value_to_elaborated_value.get(&NullCtx, &best_value)
                    {
                        // Value is available; use it.
                        trace!("elaborate: value {} -> {:?}", value, elab_val);
                        self.stats.elaborate_memoize_hit += 1;
                        self.elab_result_stack.push(*elab_val);
                        continue;
                    }

                    self.stats.elaborate_memoize_miss += 1;

                    // Now resolve the value to its definition to see
                    // how we can compute it.
                    let (inst, result_idx) = match self.func.dfg.value_def(best_value) {
                        ValueDef::Result(inst, result_idx) => {
                            trace!(
                                " -> value {} is result {} of {}",
                                best_value, result_idx, inst
                            );
                            (inst, result_idx)
                        }
                        ValueDef::Param(in_block, _) => {
                            // We don't need to do anything to compute
                            // this value; just push its result on the
                            // result stack (blockparams are already
                            // available).
                            trace!(" -> value {} is a blockparam", best_value);
                            self.elab_result_stack.push(ElaboratedValue {
                                in_block,
                                value: best_value,
                            });
                            continue;
                        }
                        ValueDef::Union(_, _) => {
                            panic!("Should never have a Union value as the best value");
                        }
                    };

                    trace!(
                        " -> result {} of inst {:?}",
                        result_idx, self.func.dfg.insts[inst]
                    );

                    // We're going to need to use this instruction
                    // result, placing the instruction into the
                    // layout. First, enqueue all args to be
                    // elaborated. Push state to receive the results
                    // and later elab this inst.
                    let num_args = self.func.dfg.inst_values(inst).count();
                    self.elab_stack.push(ElabStackEntry::PendingInst {
                        inst,
                        result_idx,
                        num_args,
                        before,
                    });

                    // Push args in reverse order so we process the
                    // first arg first.
                    for arg in self.func.dfg.inst_values(inst).rev() {
                        debug_assert_ne!(arg, Value::reserved_value());
                        self.elab_stack
                            .push(ElabStackEntry::Start { value: arg, before });
                    }
                }

                ElabStackEntry::PendingInst {
                    inst,
                    result_idx,
                    num_args,
                    before,
                } => {
                    trace!(
                        "PendingInst: {} result {} args {} before {}",
                        inst, result_idx, num_args, before
                    );

                    // We should have all args resolved at this
                    // point. Grab them and drain them out, removing
                    // them.
                    let arg_idx = self.elab_result_stack.len() - num_args;

                    // Compute max loop depth.
                    //
                    // Note that if there are no arguments then this instruction
                    // is allowed to get hoisted up one loop. This is not
                    // usually used since no-argument values are things like
                    // constants which are typically rematerialized, but for the
                    // `vconst` instruction 128-bit constants aren't as easily
                    // rematerialized. They're hoisted out of inner loops but
                    // not to the function entry which may run the risk of
                    // placing too much register pressure on the entire
                    // function. This is modeled with the `.saturating_sub(1)`
                    // as the default if there's otherwise no maximum.
                    let loop_hoist_level = self.elab_result_stack[arg_idx..]
                        .iter()
                        .map(|&value| {
                            let hoist_level = self.arg_hoist_level(value);
                            trace!(
                                " -> arg: elab_value {:?} hoist level {:?}",
                                value, hoist_level
                            );
                            hoist_level
                        })
                        .max()
                        .unwrap_or(self.loop_stack.len().saturating_sub(1));
                    let arg_values = &mut self.elab_result_stack[arg_idx..];
                    trace!(
                        " -> loop hoist level: {:?}; cur loop depth: {:?}, loop_stack: {:?}",
                        loop_hoist_level,
                        self.loop_stack.len(),
                        self.loop_stack,
                    );

                    // We know that this is a pure inst, because
                    // non-pure roots have already been placed in the
                    // value-to-elab'd-value map, so they will not
                    // reach this stage of processing.
                    //
                    // We now must determine the location at which we
                    // place the instruction. This is the current
                    // block *unless* we hoist above a loop when all
                    // args are loop-invariant (and this op is pure).
                    let (scope_depth, before, insert_block) = if loop_hoist_level
                        == self.loop_stack.len()
                    {
                        // Depends on some value at the current
                        // loop depth, or remat forces it here:
                        // place it at the current location.
                        (
                            self.value_to_elaborated_value.depth(),
                            before,
                            self.func.layout.inst_block(before).unwrap(),
                        )
                    } else {
                        // Does not depend on any args at current
                        // loop depth: hoist out of loop.
                        self.stats.elaborate_licm_hoist += 1;
                        let data = &self.loop_stack[loop_hoist_level];
                        // `data.hoist_block` should dominate `before`'s block.
                        let before_block = self.func.layout.inst_block(before).unwrap();
                        debug_assert!(self.domtree.block_dominates(data.hoist_block, before_block));
                        // Determine the instruction at which we
                        // insert in `data.hoist_block`.
                        let before = self.func.layout.last_inst(data.hoist_block).unwrap();
                        (data.scope_depth as usize, before, data.hoist_block)
                    };

                    trace!(
                        " -> decided to place: before {} insert_block {}",
                        before, insert_block
                    );

                    // Now that we have the location for the
                    // instruction, check if any of its args are remat
                    // values. If so, and if we don't have a copy of
                    // the rematerializing instruction for this block
                    // yet, create one.
                    let mut remat_arg = false;
                    for arg_value in arg_values.iter_mut() {
                        if Self::maybe_remat_arg(
                            &self.remat_values,
                            &mut self.func,
                            &mut self.remat_copies,
                            &mut self.loop_float_constants,
                            &self.loop_stack,
                            self.loop_analysis,
                            insert_block,
                            before,
                            arg_value,
                            &mut self.stats,
                        ) {
                            remat_arg = true;
                        }
                    }

                    // Now we need to place `inst` at the computed
                    // location (just before `before`). Note that
                    // `inst` may already have been placed somewhere
                    // else, because a pure node may be elaborated at
                    // more than one place. In this case, we need to
                    // duplicate the instruction (and return the
                    // `Value`s for that duplicated instance instead).
                    //
                    // Also clone if we rematerialized, because we
                    // don't want to rewrite the args in the original
                    // copy.
                    trace!("need inst {} before {}", inst, before);
                    let inst = if self.func.layout.inst_block(inst).is_some() || remat_arg {
                        // Clone the inst!
                        let new_inst = self.func.dfg.clone_inst(inst);
                        trace!(
                            " -> inst {} already has a location; cloned to {}",
                            inst, new_inst
                        );
                        // Create mappings in the
                        // value-to-elab'd-value map from original
                        // results to cloned results.
                        for (&result, &new_result) in self
                            .func
                            .dfg
                            .inst_results(inst)
                            .iter()
                            .zip(self.func.dfg.inst_results(new_inst).iter())
                        {
                            let elab_value = ElaboratedValue {
                                value: new_result,
                                in_block: insert_block,
                            };
                            let best_result = self.value_to_best_value[result];
                            self.value_to_elaborated_value.insert_if_absent_with_depth(
                                &NullCtx,
                                best_result.1,
                                elab_value,
                                scope_depth,
                            );

                            self.value_to_best_value[new_result] = best_result;

                            trace!(
                                " -> cloned inst has new result {} for orig {}",
                                new_result, result
                            );
                        }
                        new_inst
                    } else {
                        trace!(" -> no location; using original inst");
                        // Create identity mappings from result values
                        // to themselves in this scope, since we're
                        // using the original inst.
                        for &result in self.func.dfg.inst_results(inst) {
                            let elab_value = ElaboratedValue {
                                value: result,
                                in_block: insert_block,
                            };
                            let best_result = self.value_to_best_value[result];
                            self.value_to_elaborated_value.insert_if_absent_with_depth(
                                &NullCtx,
                                best_result.1,
                                elab_value,
                                scope_depth,
                            );
                            trace!(" -> inserting identity mapping for {}", result);
                        }
                        inst
                    };

                    // Place the inst just before `before`.
                    assert!(
                        is_pure_for_egraph(self.func, inst),
                        "something has gone very wrong if we are elaborating effectful \
                         instructions, they should have remained in the skeleton"
                    );
                    self.func.layout.insert_inst(inst, before);

                    // Update the inst's arguments.
                    self.func
                        .dfg
                        .overwrite_inst_values(inst, arg_values.into_iter().map(|ev| ev.value));

                    // Now that we've consumed the arg values, pop
                    // them off the stack.
                    self.elab_result_stack.truncate(arg_idx);

                    // Push the requested result index of the
                    // instruction onto the elab-results stack.
                    self.elab_result_stack.push(ElaboratedValue {
                        in_block: insert_block,
                        value: self.func.dfg.inst_results(inst)[result_idx],
                    });
                }
            }
        }
    }

    fn elaborate_block(&mut self, elab_values: &mut Vec<Value>, idom: Option<Block>, block: Block) {
        trace!("elaborate_block: block {}", block);
        self.start_block(idom, block);

        // Iterate over the side-effecting skeleton using the linked
        // list in Layout. We will insert instructions that are
        // elaborated *before* `inst`, so we can always use its
        // next-link to continue the iteration.
        let mut next_inst = self.func.layout.first_inst(block);
        let mut first_branch = None;
        while let Some(inst) = next_inst {
            trace!(
                "elaborating inst {} with results {:?}",
                inst,
                self.func.dfg.inst_results(inst)
            );
            // Record the first branch we see in the block; all
            // elaboration for args of *any* branch must be inserted
            // before the *first* branch, because the branch group
            // must remain contiguous at the end of the block.
            if self.func.dfg.insts[inst].opcode().is_branch() && first_branch == None {
                first_branch = Some(inst);
            }

            // Determine where elaboration inserts insts.
            let before = first_branch.unwrap_or(inst);
            trace!(" -> inserting before {}", before);

            elab_values.extend(self.func.dfg.inst_values(inst));
            let order = self.elaboration_order(inst, elab_values);
            for i in order {
                let arg = &mut elab_values[i];
                trace!(" -> arg {}", *arg);
                // Elaborate the arg, placing any newly-inserted insts
                // before `before`. Get the updated value, which may
                // be different than the original.
                let mut new_arg = self.elaborate_eclass_use(*arg, before);
                Self::maybe_remat_arg(
                    &self.remat_values,
                    &mut self.func,
                    &mut self.remat_copies,
                    &mut self.loop_float_constants,
                    &self.loop_stack,
                    self.loop_analysis,
                    block,
                    inst,
                    &mut new_arg,
                    &mut self.stats,
                );
                trace!("   -> rewrote arg to {:?}", new_arg);
                *arg = new_arg.value;
            }
            self.func
                .dfg
                .overwrite_inst_values(inst, elab_values.drain(..));

            // We need to put the results of this instruction in the
            // map now.
            for &result in self.func.dfg.inst_results(inst) {
                trace!(" -> result {}", result);
                let best_result = self.value_to_best_value[result];
                self.value_to_elaborated_value.insert_if_absent(
                    &NullCtx,
                    best_result.1,
                    ElaboratedValue {
                        in_block: block,
                        value: result,
                    },
                );
            }

            next_inst = self.func.layout.next_inst(inst);
        }
    }

    /// The order in which to elaborate `inst`'s values (indices into
    /// `values`, its `inst_values`).
    ///
    /// A branch's values are elaborated in this order: block-call
    /// arguments that are deeper expressions, then those that are
    /// one operation on block parameters and constants (a loop's
    /// `i + 1`), then the branch's own arguments (its condition).
    /// Elaborating in operand order placed a loop's `i + 1` (and a
    /// condition `i + 1 == n`) at the top of the block, so `i` and
    /// `i + 1` were both live through the loop body, took two
    /// registers, and the back edge needed moves in a block of its
    /// own. Computed last, `i + 1` follows the body's other uses of
    /// `i` and can reuse its register (as `add $1, %reg` on x64),
    /// so the back edge needs no moves. Other instructions keep
    /// operand order.
    fn elaboration_order(&self, inst: Inst, values: &[Value]) -> SmallVec<[usize; 8]> {
        let mut order: SmallVec<[usize; 8]> = (0..values.len()).collect();
        if !self.func.dfg.insts[inst].opcode().is_branch() {
            return order;
        }
        let fixed = self.func.dfg.inst_args(inst).len();
        let rank = |i: usize| {
            if i < fixed {
                2
            } else if self.is_step_of_params(values[i]) {
                1
            } else {
                0
            }
        };
        // Each value's rank once (a branch of a function under register
        // pressure carries dozens), then a stable sort, which keeps operand
        // order within each group.
        let ranks: SmallVec<[u8; 8]> = (0..values.len()).map(rank).collect();
        order.sort_by_key(|&i| ranks[i]);
        order
    }

    /// Whether `value`'s best form is a block parameter, or one
    /// operation whose operands are block parameters or constants.
    /// (A value without a best form, e.g. one the e-graph never saw, is
    /// neither.)
    fn is_step_of_params(&self, value: Value) -> bool {
        let dfg = &self.func.dfg;
        let def = |v: Value| {
            let best = self.value_to_best_value.get(v).map(|b| b.1);
            best.filter(|&b| b != Value::reserved_value()).map(|b| dfg.value_def(b))
        };
        let is_leaf = |v: Value| match def(v) {
            Some(ValueDef::Param(..)) => true,
            Some(ValueDef::Result(inst, _)) => dfg.inst_values(inst).next().is_none(),
            _ => false,
        };
        match def(value) {
            Some(ValueDef::Param(..)) => true,
            Some(ValueDef::Result(inst, _)) => dfg.inst_values(inst).all(is_leaf),
            _ => false,
        }
    }

    fn elaborate_domtree(&mut self, domtree: &DominatorTree) {
        self.block_stack.push(BlockStackEntry::Elaborate {
            block: self.func.layout.entry_block().unwrap(),
            idom: None,
        });

        // A temporary workspace for elaborate_block, allocated here to maximize the use of the
        // allocation.
        let mut elab_values = Vec::new();

        while let Some(top) = self.block_stack.pop() {
            match top {
                BlockStackEntry::Elaborate { block, idom } => {
                    self.block_stack.push(BlockStackEntry::Pop);
                    self.value_to_elaborated_value.increment_depth();

                    self.elaborate_block(&mut elab_values, idom, block);

                    // Push children. We are doing a preorder
                    // traversal so we do this after processing this
                    // block above.
                    let block_stack_end = self.block_stack.len();
                    for child in self.ctrl_plane.shuffled(domtree.children(block)) {
                        self.block_stack.push(BlockStackEntry::Elaborate {
                            block: child,
                            idom: Some(block),
                        });
                    }
                    // Reverse what we just pushed so we elaborate in
                    // original block order. (The domtree iter is a
                    // single-ended iter over a singly-linked list so
                    // we can't `.rev()` above.)
                    self.block_stack[block_stack_end..].reverse();
                }
                BlockStackEntry::Pop => {
                    self.value_to_elaborated_value.decrement_depth();
                }
            }
        }
    }

    pub(crate) fn elaborate(&mut self) {
        self.stats.elaborate_func += 1;
        self.stats.elaborate_func_pre_insts += self.func.dfg.num_insts() as u64;
        self.compute_best_values();
        self.elaborate_domtree(&self.domtree);
        self.stats.elaborate_func_post_insts += self.func.dfg.num_insts() as u64;
    }
}

/// Whether `value` is rematerialized and its instruction has no
/// arguments (a constant).
fn is_remat_constant(remat_values: &FxHashSet<Value>, func: &Function, value: Value) -> bool {
    remat_values.contains(&value)
        && match func.dfg.value_def(value) {
            ValueDef::Result(inst, _) => func.dfg.inst_values(inst).next().is_none(),
            _ => false,
        }
}

/// The block in which `value` is defined, if it is placed.
fn value_block(func: &Function, value: Value) -> Option<Block> {
    match func.dfg.value_def(value) {
        ValueDef::Result(inst, _) => func.layout.inst_block(inst),
        ValueDef::Param(block, _) => Some(block),
        ValueDef::Union(..) => None,
    }
}

#[cfg(test)]
mod branch_argument_order_tests {
    //! A loop's `i + 1` and its exit test `i + 1 == n` are placed after the loop body's other uses
    //! of `i`, so that `i` and `i + 1` can share a register and the back edge needs no moves.

    use crate::Context;
    use crate::cursor::{Cursor, FuncCursor};
    use crate::ir::condcodes::IntCC;
    use crate::ir::{AbiParam, Function, InstBuilder, Opcode, Signature, Value, types};
    use crate::isa::{CallConv, lookup};
    use crate::settings::{self, Configurable};
    use alloc::string::String;
    use alloc::vec::Vec;
    use core::str::FromStr;
    use target_lexicon::Triple;

    /// `acc = 0; for i in 0..1000 { acc = rotl(acc + i * K, i) } return acc`, with the step and the
    /// exit test written before the body and the block arguments in the order `(i + 1, acc)`, or
    /// `(acc, i + 1)` with `acc_first`. Returns the function and the step's value.
    fn counted_loop(acc_first: bool) -> (Function, Value) {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let entry = func.dfg.make_block();
        let body = func.dfg.make_block();
        let exit = func.dfg.make_block();
        let (i, acc) = if acc_first {
            let acc = func.dfg.append_block_param(body, types::I64);
            (func.dfg.append_block_param(body, types::I64), acc)
        } else {
            let i = func.dfg.append_block_param(body, types::I64);
            (i, func.dfg.append_block_param(body, types::I64))
        };
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(entry);
        let zero = pos.ins().iconst(types::I64, 0);
        pos.ins().jump(body, &[zero.into(), zero.into()]);
        pos.insert_block(body);
        let next = pos.ins().iadd_imm_s(i, 1);
        let done = pos.ins().icmp_imm_s(IntCC::Equal, next, 1000);
        let scaled = pos.ins().imul_imm_u(i, 0x9e37_79b1);
        let sum = pos.ins().iadd(acc, scaled);
        let rotated = pos.ins().rotl(sum, i);
        let args = if acc_first { [rotated.into(), next.into()] } else { [next.into(), rotated.into()] };
        pos.ins().brif(done, exit, &[], body, &args);
        pos.insert_block(exit);
        pos.ins().return_(&[rotated]);
        (func, next)
    }

    fn x64() -> crate::isa::OwnedTargetIsa {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").unwrap();
        lookup(Triple::from_str("x86_64-unknown-linux-gnu").unwrap())
            .unwrap()
            .finish(settings::Flags::new(flags))
            .unwrap()
    }

    /// The loop body's instructions after the optimiser, as opcodes and their arguments.
    fn optimized_body(acc_first: bool) -> Vec<(Opcode, Vec<Value>, Vec<Value>)> {
        let (func, _) = counted_loop(acc_first);
        let mut context = Context::for_function(func);
        context.optimize(&*x64(), &mut Default::default()).expect("optimisation");
        let func = &context.func;
        let body = func.layout.blocks().nth(1).unwrap();
        func.layout
            .block_insts(body)
            .map(|inst| {
                let args = func.dfg.inst_values(inst).collect();
                (func.dfg.insts[inst].opcode(), args, func.dfg.inst_results(inst).to_vec())
            })
            .collect()
    }

    /// Checks that the step `i + 1` follows the body's last other use of `i` (the `rotl`) and that
    /// the exit test compares the step, not `i` with `1000 - 1`.
    fn check_step_after_body(acc_first: bool) {
        let body = optimized_body(acc_first);
        let (func, _) = counted_loop(acc_first);
        let i = func.dfg.block_params(func.layout.blocks().nth(1).unwrap())[usize::from(acc_first)];
        let position = |wanted: &dyn Fn(&(Opcode, Vec<Value>, Vec<Value>)) -> bool| {
            body.iter().position(|inst| wanted(inst)).unwrap_or_else(|| panic!("{body:?}"))
        };
        let step = position(&|(op, args, _)| *op == Opcode::Iadd && args.contains(&i));
        let rotl = position(&|(op, ..)| *op == Opcode::Rotl);
        let test = position(&|(op, ..)| *op == Opcode::Icmp);
        assert!(step > rotl, "the step follows the rotl: {body:?}");
        assert!(body[test].1.contains(&body[step].2[0]), "the exit test compares the step: {body:?}");
    }

    #[test]
    fn step_after_the_body_in_either_argument_order() {
        check_step_after_body(false);
        check_step_after_body(true);
    }

    #[test]
    fn x64_back_edge_without_moves() {
        for acc_first in [false, true] {
            let (func, _) = counted_loop(acc_first);
            let mut context = Context::for_function(func);
            context.set_disasm(true);
            let code = context.compile(&*x64(), &mut Default::default()).expect("compilation");
            let disasm: String = code.vcode.clone().expect("disassembly");
            // The blocks that jump back to the loop: each must be the jump alone.
            let blocks: Vec<Vec<&str>> = disasm
                .split("\nblock")
                .map(|block| block.lines().skip(1).map(str::trim).collect())
                .collect();
            let back_edges: Vec<&Vec<&str>> =
                blocks.iter().filter(|insts| insts.last() == Some(&"jmp     label1")).skip(1).collect();
            assert!(!back_edges.is_empty(), "{disasm}");
            for insts in back_edges {
                assert_eq!(insts.len(), 1, "the back edge moves nothing: {disasm}");
            }
        }
    }
}

#[cfg(test)]
mod remat_argument_hoisting_tests {
    //! An instruction whose arguments are an outer loop's values and rematerialized constants is
    //! hoisted out of the inner loops, wherever the constants were placed first.

    use crate::Context;
    use crate::cursor::{Cursor, FuncCursor};
    use crate::ir::condcodes::IntCC;
    use crate::ir::{AbiParam, Block, Function, InstBuilder, Opcode, Signature, types};
    use crate::isa::{CallConv, lookup};
    use crate::settings::{self, Configurable};
    use alloc::string::ToString;
    use core::str::FromStr;
    use target_lexicon::Triple;

    /// Three nested loops over `r`, `p` and `i` (the Mandelbrot kernel's shape) whose innermost
    /// body adds `f64(i) / f64((r & 1) | 120)` to an accumulator. Returns the function and the
    /// headers of the outermost and the innermost loop.
    fn nested_loops() -> (Function, [Block; 2]) {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::F64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let entry = func.dfg.make_block();
        let [outer, middle, inner, middle_latch, outer_latch, exit] = [(); 6].map(|_| func.dfg.make_block());
        let n = func.dfg.append_block_param(entry, types::I64);
        let r = func.dfg.append_block_param(outer, types::I64);
        let outer_acc = func.dfg.append_block_param(outer, types::F64);
        let p = func.dfg.append_block_param(middle, types::I64);
        let middle_acc = func.dfg.append_block_param(middle, types::F64);
        let i = func.dfg.append_block_param(inner, types::I64);
        let acc = func.dfg.append_block_param(inner, types::F64);
        let middle_done = func.dfg.append_block_param(middle_latch, types::F64);
        let outer_done = func.dfg.append_block_param(outer_latch, types::F64);
        let result = func.dfg.append_block_param(exit, types::F64);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(entry);
        let zero = pos.ins().iconst(types::I64, 0);
        let fzero = pos.ins().f64const(0.0);
        pos.ins().jump(outer, &[zero.into(), fzero.into()]);
        pos.insert_block(outer);
        let zero = pos.ins().iconst(types::I64, 0);
        pos.ins().jump(middle, &[zero.into(), outer_acc.into()]);
        pos.insert_block(middle);
        let zero = pos.ins().iconst(types::I64, 0);
        pos.ins().jump(inner, &[zero.into(), middle_acc.into()]);
        pos.insert_block(inner);
        let one = pos.ins().iconst(types::I64, 1);
        let parity = pos.ins().band(r, one);
        let k = pos.ins().iconst(types::I64, 120);
        let size = pos.ins().bor(parity, k);
        let fsize = pos.ins().fcvt_from_sint(types::F64, size);
        let fi = pos.ins().fcvt_from_sint(types::F64, i);
        let q = pos.ins().fdiv(fi, fsize);
        let next_acc = pos.ins().fadd(acc, q);
        let next_i = pos.ins().iadd_imm_s(i, 1);
        let done = pos.ins().icmp_imm_s(IntCC::Equal, next_i, 100);
        pos.ins().brif(done, middle_latch, &[next_acc.into()], inner, &[next_i.into(), next_acc.into()]);
        pos.insert_block(middle_latch);
        let next_p = pos.ins().iadd_imm_s(p, 1);
        let done = pos.ins().icmp_imm_s(IntCC::Equal, next_p, 100);
        pos.ins().brif(done, outer_latch, &[middle_done.into()], middle, &[next_p.into(), middle_done.into()]);
        pos.insert_block(outer_latch);
        let next_r = pos.ins().iadd_imm_s(r, 1);
        let done = pos.ins().icmp(IntCC::Equal, next_r, n);
        pos.ins().brif(done, exit, &[outer_done.into()], outer, &[next_r.into(), outer_done.into()]);
        pos.insert_block(exit);
        pos.ins().return_(&[result]);
        (func, [outer, inner])
    }

    fn x64() -> crate::isa::OwnedTargetIsa {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").unwrap();
        lookup(Triple::from_str("x86_64-unknown-linux-gnu").unwrap())
            .unwrap()
            .finish(settings::Flags::new(flags))
            .unwrap()
    }

    #[test]
    fn conversion_of_outer_value_or_constant_leaves_the_inner_loops() {
        let (func, [outer, inner]) = nested_loops();
        let mut context = Context::for_function(func);
        context.optimize(&*x64(), &mut Default::default()).expect("optimisation");
        let func = &context.func;
        let text = func.display().to_string();
        // The conversion of `(r & 1) | 120` (the one whose operand is a `bor`) sits in `r`'s loop
        // header, not in `p`'s or `i`'s (where the constants were placed first).
        let block_of = |wanted: Opcode, operand: Opcode| {
            func.layout
                .blocks()
                .flat_map(|block| func.layout.block_insts(block).map(move |inst| (block, inst)))
                .find(|&(_, inst)| {
                    func.dfg.insts[inst].opcode() == wanted
                        && func.dfg.inst_values(inst).any(|arg| {
                            func.dfg.value_def(arg).inst().map(|def| func.dfg.insts[def].opcode())
                                == Some(operand)
                        })
                })
                .unwrap_or_else(|| panic!("no {wanted} of a {operand}: {text}"))
                .0
        };
        assert_eq!(block_of(Opcode::FcvtFromSint, Opcode::Bor), outer, "{text}");
        // The division also needs `f64(i)`, so it stays in the innermost loop.
        assert_eq!(block_of(Opcode::Fdiv, Opcode::FcvtFromSint), inner, "{text}");
    }
}

#[cfg(test)]
mod loop_float_constant_tests {
    //! Float constants used in a loop without calls are kept in a register from the loop's hoist
    //! block (at most `MAX_KEPT_FLOAT_CONSTANTS` of them); in a loop with a call they are
    //! rematerialized in the loop.

    use super::MAX_KEPT_FLOAT_CONSTANTS;
    use crate::Context;
    use crate::cursor::{Cursor, FuncCursor};
    use crate::ir::condcodes::IntCC;
    use crate::ir::{
        AbiParam, ExtFuncData, ExternalName, Function, InstBuilder, Opcode, Signature,
        UserExternalName, types,
    };
    use crate::isa::{CallConv, lookup};
    use crate::settings::{self, Configurable};
    use alloc::string::ToString;
    use core::str::FromStr;
    use target_lexicon::Triple;

    /// `for i in 0..100 { acc = f(acc) * 1.5 * 2.5 * ... }` with `constants` distinct factors, the
    /// call to `f` only `with_call`; returns `acc`.
    fn product_loop(constants: usize, with_call: bool) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::F64));
        sig.returns.push(AbiParam::new(types::F64));
        let mut func = Function::with_name_signature(Default::default(), sig.clone());
        let callee_sig = func.import_signature(sig);
        let callee_name = func.declare_imported_user_function(UserExternalName::new(0, 0));
        let callee = func.import_function(ExtFuncData {
            name: ExternalName::user(callee_name),
            signature: callee_sig,
            colocated: true,
            patchable: false,
        });
        let entry = func.dfg.make_block();
        let header = func.dfg.make_block();
        let exit = func.dfg.make_block();
        let x = func.dfg.append_block_param(entry, types::F64);
        let i = func.dfg.append_block_param(header, types::I64);
        let acc = func.dfg.append_block_param(header, types::F64);
        let result = func.dfg.append_block_param(exit, types::F64);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(entry);
        let zero = pos.ins().iconst(types::I64, 0);
        pos.ins().jump(header, &[zero.into(), x.into()]);
        pos.insert_block(header);
        let mut product = acc;
        if with_call {
            let call = pos.ins().call(callee, &[acc]);
            product = pos.func.dfg.inst_results(call)[0];
        }
        for k in 0..constants {
            let factor = pos.ins().f64const(1.5 + k as f64);
            product = pos.ins().fmul(product, factor);
        }
        let next = pos.ins().iadd_imm_s(i, 1);
        let done = pos.ins().icmp_imm_s(IntCC::Equal, next, 100);
        pos.ins().brif(done, exit, &[product.into()], header, &[next.into(), product.into()]);
        pos.insert_block(exit);
        pos.ins().return_(&[result]);
        func
    }

    fn x64() -> crate::isa::OwnedTargetIsa {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").unwrap();
        lookup(Triple::from_str("x86_64-unknown-linux-gnu").unwrap())
            .unwrap()
            .finish(settings::Flags::new(flags))
            .unwrap()
    }

    /// How many of the loop's multiplications use a constant defined in the loop, and how many
    /// one defined before it.
    fn factors_in_and_before_the_loop(constants: usize, with_call: bool) -> (usize, usize) {
        let mut context = Context::for_function(product_loop(constants, with_call));
        context.optimize(&*x64(), &mut Default::default()).expect("optimisation");
        let func = &context.func;
        let text = func.display().to_string();
        let header = func.layout.blocks().nth(1).unwrap();
        let (mut inside, mut before) = (0, 0);
        for inst in func.layout.block_insts(header) {
            if func.dfg.insts[inst].opcode() != Opcode::Fmul {
                continue;
            }
            let factor = func.dfg.inst_args(inst)[1];
            let def = func.dfg.value_def(factor).inst().unwrap();
            assert_eq!(func.dfg.insts[def].opcode(), Opcode::F64const, "{text}");
            if func.layout.inst_block(def) == Some(header) {
                inside += 1;
            } else {
                before += 1;
            }
        }
        assert_eq!(inside + before, constants, "{text}");
        (inside, before)
    }

    #[test]
    fn kept_before_a_loop_without_calls() {
        assert_eq!(factors_in_and_before_the_loop(2, false), (0, 2));
    }

    #[test]
    fn rematerialized_in_a_loop_with_a_call() {
        assert_eq!(factors_in_and_before_the_loop(2, true), (2, 0));
    }

    #[test]
    fn at_most_a_few_kept() {
        let max = usize::from(MAX_KEPT_FLOAT_CONSTANTS);
        assert_eq!(factors_in_and_before_the_loop(max + 2, false), (2, max));
    }
}
