//! Implicit extents of pointers (issue 15): a pointer that a compute
//! region uses with no data clause gets the section its subscripts reach,
//! derived from the loop bounds — as nvc's `Generating implicit
//! copy(a[:n])` — when every use of it is a subscript (or pointer
//! arithmetic) affine in the loop variables, with loop bounds and
//! coefficients made of constants and host values the region does not
//! change. Read only: `copyin`; written only: `copyout`; else `copy`.
//!
//! Owns: [`pointer_uses`] (one walk over a region's unscheduled IR body),
//! [`Use`] and [`Section`] (its implicit map: `sections/host_map.rs`).
//! The offsets are in bytes ([`Affine`]); the least and greatest offsets a
//! subscript reaches come from eliminating the loop variables innermost
//! first (a positive coefficient takes the upper bound for the greatest
//! offset). A coefficient that is a host value (`i*m`) is assumed
//! nonnegative (or, all of its terms negative, nonpositive) under a guard
//! checked at run time: when it fails, the item has no extent and its
//! target must be present. Locals assigned once stand for their value;
//! a `while` loop of the form `v = init; while (v < limit) { …; v += c; }`
//! counts as a loop over `v`.
//! May call: `ir`, `poly`. (`data_attrs::undecided_uses` calls it for
//! each kernel of the lowered module, with the plain pointers among its
//! parameters that its construct's undecided data names, and `data_attrs`
//! makes the implicit maps of what it finds; [`super::add_sections`]
//! calls it for every pointer parameter, for `--emit=info`.)

use super::poly::Poly;
use crate::ir::{
    BinOp, CmpOp, Expr, ExprId, Function, Index, Literal, LocalId, LoopCmp, Param, ParamMode,
    RedTarget, Stmt, Type, UnOp,
};
use std::collections::{HashMap, HashSet};

mod affine;
mod host_map;
use affine::Affine;

/// What a region does with one pointer it uses without a data clause.
#[derive(Clone, Debug, PartialEq)]
pub enum Use {
    /// Only subscripts, reaching this section.
    Known(Section),
    /// Something else: why the extent cannot be derived.
    Unknown(String),
}

/// The bytes a region's subscripts of one pointer reach, relative to the
/// pointer's value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// Candidates for the first byte offset (the least is the start).
    pub lo: Vec<Poly>,
    /// Candidates for the end offset (the greatest is one past the end).
    pub end: Vec<Poly>,
    /// Host values assumed nonnegative: when one is negative at run time,
    /// the section is not used (the item has no extent).
    pub guards: Vec<Poly>,
    pub read: bool,
    pub written: bool,
    /// Byte ranges `[lo, end)` that one store writes completely (every
    /// element, in every iteration): `copyout` instead of `copy` only when
    /// one of them is the whole section, so no element the region does not
    /// write is copied back.
    pub covers: Vec<(Poly, Poly)>,
}

impl Section {
    /// The uses of both `self` and `o` (two kernels of one construct).
    fn merge(&mut self, o: &Section) {
        self.lo.extend(o.lo.iter().cloned());
        self.end.extend(o.end.iter().cloned());
        for g in &o.guards {
            if !self.guards.contains(g) {
                self.guards.push(g.clone());
            }
        }
        self.read |= o.read;
        self.written |= o.written;
        self.covers.extend(o.covers.iter().cloned());
    }
}

/// Adds the uses `from` (of another kernel of the same construct) to `into`.
pub fn merge_uses(into: &mut HashMap<String, Use>, from: HashMap<String, Use>) {
    for (var, u) in from {
        match (into.get_mut(&var), u) {
            (None, u) => {
                into.insert(var, u);
            }
            (Some(Use::Unknown(_)), _) => {}
            (Some(x @ Use::Known(_)), Use::Unknown(why)) => *x = Use::Unknown(why),
            (Some(Use::Known(a)), Use::Known(b)) => a.merge(&b),
        }
    }
}

/// A loop variable's bounds (inclusive) and the depth of its loop.
#[derive(Clone, Debug)]
struct LoopVar {
    lo: Affine,
    hi: Affine,
    depth: usize,
    /// It steps by 1 or -1 (every value between the bounds is taken).
    unit: bool,
}

type R<T> = Result<T, String>;

/// How each pointer parameter of `f` is used, by host name, for the
/// parameters `params` where `candidate` holds (the front end asks about
/// plain C pointers only, not arrays or scalars passed by address). A value
/// parameter the body does not assign stands for its host value, by its
/// host name ([`Param::name`]: `n`, or `sizeof(path)` for a hidden size).
pub fn pointer_uses(f: &Function, params: &[Param], candidate: &[bool]) -> HashMap<String, Use> {
    let mut w = Walk {
        f,
        syms: HashMap::new(),
        roots: HashMap::new(),
        assigned: HashMap::new(),
        other_writes: HashSet::new(),
        loops: HashMap::new(),
        depth: 0,
        uses: HashMap::new(),
        conditional: 0,
        exits: false,
    };
    crate::ir::walk_stmts(&f.body, &mut |s| w.note_writes(s));
    for (p, &candidate) in params.iter().zip(candidate) {
        match p.mode {
            ParamMode::Value if !w.assigned.contains_key(&p.local) => {
                w.syms.insert(p.local, p.name.clone());
            }
            ParamMode::DevicePtr if candidate => {
                w.roots.insert(p.local, p.name.clone());
                w.uses
                    .insert(p.name.clone(), Use::Known(Section::default()));
            }
            _ => {}
        }
    }
    w.block(&f.body);
    w.uses
}

struct Walk<'f> {
    f: &'f Function,
    /// Host values the region does not change: parameter local → C text.
    syms: HashMap<LocalId, String>,
    /// The pointer parameters followed: local → host name.
    roots: HashMap<LocalId, String>,
    /// The values assigned to each local (`Stmt::Assign`).
    assigned: HashMap<LocalId, Vec<ExprId>>,
    /// Locals written otherwise (atomics, call results).
    other_writes: HashSet<LocalId>,
    loops: HashMap<LocalId, R<LoopVar>>,
    depth: usize,
    uses: HashMap<String, Use>,
    /// Inside this many conditions (`if`, `switch`, uncounted loops).
    conditional: usize,
    /// The body can leave a loop or itself early (break, continue, return).
    exits: bool,
}

impl Walk<'_> {
    fn note_writes(&mut self, s: &Stmt) {
        match s {
            Stmt::Assign { local, value } => self.assigned.entry(*local).or_default().push(*value),
            Stmt::AtomicRmw { old: Some(l), .. }
            | Stmt::AtomicLoad { dst: l, .. }
            | Stmt::Call {
                result: Some(l), ..
            } => {
                self.other_writes.insert(*l);
            }
            Stmt::AtomicCas { old, ok, .. } => {
                self.other_writes.insert(*old);
                self.other_writes.insert(*ok);
            }
            Stmt::Break | Stmt::Continue | Stmt::Return(_) => self.exits = true,
            _ => {}
        }
    }

    /// The value of a local assigned exactly once.
    fn single(&self, l: LocalId) -> Option<ExprId> {
        match self.assigned.get(&l).map(Vec::as_slice) {
            Some([v]) if !self.other_writes.contains(&l) => Some(*v),
            _ => None,
        }
    }

    fn name(&self, l: LocalId) -> String {
        self.f.local(l).name.clone()
    }

    /// `e` as an affine form of the loop variables.
    fn aff(&self, e: ExprId, seen: &mut Vec<LocalId>) -> R<Affine> {
        let f = self.f;
        let non_affine = || Err("a subscript is not affine in the loop variables".to_string());
        match f.expr(e) {
            Expr::Literal(Literal::Int(v)) => {
                Ok(Affine::konst(Poly::konst(int_value(*v, f.ty(e)))))
            }
            Expr::Local(l) => {
                if let Some(lv) = self.loops.get(l) {
                    return lv.as_ref().map(|_| Affine::var(*l)).map_err(Clone::clone);
                }
                if let Some(s) = self.syms.get(l) {
                    return Ok(Affine::konst(Poly::sym(s)));
                }
                match self.single(*l) {
                    Some(v) if !seen.contains(l) => {
                        seen.push(*l);
                        let r = self.aff(v, seen);
                        seen.pop();
                        r
                    }
                    _ => Err(format!("'{}' changes in the region", self.name(*l))),
                }
            }
            Expr::Cast(x) => match (f.ty(*x), f.ty(e)) {
                (Type::Int(a), Type::Int(b)) if b.bits() >= a.bits() => self.aff(*x, seen),
                _ => non_affine(),
            },
            Expr::Unary { op: UnOp::Neg, arg } => {
                let a = self.aff(*arg, seen)?;
                a.times(&Poly::konst(-1)).ok_or_else(overflow)
            }
            Expr::Binary { op, lhs, rhs } => {
                let a = self.aff(*lhs, seen)?;
                let b = self.aff(*rhs, seen)?;
                let r = match op {
                    BinOp::Add => a.add(&b),
                    BinOp::Sub => b.times(&Poly::konst(-1)).and_then(|b| a.add(&b)),
                    BinOp::Mul => a.mul(&b),
                    BinOp::Shl => match (b.vars.is_empty(), b.konst.as_const()) {
                        (true, Some(k @ 0..=62)) => a.times(&Poly::konst(1i128 << k)),
                        _ => return non_affine(),
                    },
                    _ => return non_affine(),
                };
                r.ok_or_else(overflow)
            }
            _ => non_affine(),
        }
    }

    /// An address derived from a followed pointer: its host name, its
    /// byte offset, and the subscripts on the way (to visit as values).
    fn chain(
        &self,
        e: ExprId,
        seen: &mut Vec<LocalId>,
    ) -> Option<(String, R<Affine>, Vec<ExprId>)> {
        let f = self.f;
        match f.expr(e) {
            Expr::Local(l) => {
                if let Some(n) = self.roots.get(l) {
                    return Some((n.clone(), Ok(Affine::default()), vec![]));
                }
                let v = self.single(*l)?;
                if !matches!(f.local(*l).ty, Type::Ptr(_)) || seen.contains(l) {
                    return None;
                }
                seen.push(*l);
                let r = self.chain(v, seen);
                seen.pop();
                r
            }
            Expr::PtrAdd { base, index } => {
                let size = f.ty(*base).pointee().map_or(0, Type::size);
                self.steps(*base, &[(*index, Some(size))], seen)
            }
            Expr::Index(ix) => {
                let elem = f.ty(e).pointee().map_or(0, Type::size);
                let subs: Vec<_> = ix.subs.iter().copied().zip(ix.byte_strides(elem)).collect();
                let (n, off, mut idx) = self.steps(ix.base, &subs, seen)?;
                let extents = ix.operands().into_iter().skip(1);
                idx.extend(extents.filter(|x| !ix.subs.contains(x)));
                Some((n, off, idx))
            }
            Expr::Cast(x) if matches!(f.ty(*x), Type::Ptr(_)) => self.chain(*x, seen),
            _ => None,
        }
    }

    /// The chain of `base` moved by `index * stride` bytes for each
    /// `(index, stride)` (`None`: a stride known only at run time).
    fn steps(
        &self,
        base: ExprId,
        steps: &[(ExprId, Option<u64>)],
        seen: &mut Vec<LocalId>,
    ) -> Option<(String, R<Affine>, Vec<ExprId>)> {
        let (n, mut off, mut idx) = self.chain(base, seen)?;
        for &(index, stride) in steps {
            idx.push(index);
            off = off.and_then(|o| {
                let size = stride.ok_or("an array extent is known only at run time")?;
                let i = self.aff(index, &mut vec![])?;
                let step = i
                    .times(&Poly::konst(i128::from(size)))
                    .ok_or_else(overflow)?;
                o.add(&step).ok_or_else(overflow)
            });
        }
        Some((n, off, idx))
    }

    fn unknown(&mut self, var: &str, why: String) {
        if let Some(u @ Use::Known(_)) = self.uses.get_mut(var) {
            *u = Use::Unknown(why);
        }
    }

    /// `e` used as a value.
    fn value(&mut self, e: ExprId) {
        if let Some((n, _, idx)) = self.chain(e, &mut vec![]) {
            self.unknown(
                &n,
                "it is passed to a function, stored or compared, not only subscripted".into(),
            );
            for i in idx {
                self.value(i);
            }
            return;
        }
        match self.f.expr(e) {
            Expr::Load(x) => self.access(*x, (true, false), None),
            _ => {
                for c in self.f.children(e) {
                    self.value(c);
                }
            }
        }
    }

    /// Memory at address `x` is read and/or written: `bytes` of it (`None`:
    /// the size of what `x` points to).
    fn access(&mut self, x: ExprId, (read, written): (bool, bool), bytes: Option<u64>) {
        let Some((n, off, idx)) = self.chain(x, &mut vec![]) else {
            if let Some(n) = self.loaded_from(x) {
                self.unknown(&n, format!("the region follows the pointers it holds (use a sub-array of them, '{n}[0:n][0:m]', in a data clause)"));
            }
            return self.value(x);
        };
        let size = bytes.unwrap_or_else(|| self.f.ty(x).pointee().map_or(1, Type::size));
        for i in idx {
            self.value(i);
        }
        let cover = match &off {
            Ok(o) if written && self.conditional == 0 && !self.exits => self.cover(o, size),
            _ => None,
        };
        let r = off.and_then(|o| self.reach(&o, size));
        match r {
            Ok((lo, end, guards)) => {
                if let Some(Use::Known(s)) = self.uses.get_mut(&n) {
                    if let Some(len) = cover {
                        if let Some(e) = lo.add(&len) {
                            s.covers.push((lo.clone(), e));
                        }
                    }
                    s.lo.push(lo);
                    s.end.push(end);
                    for g in guards {
                        if !s.guards.contains(&g) {
                            s.guards.push(g);
                        }
                    }
                    s.read |= read;
                    s.written |= written;
                }
            }
            Err(why) => self.unknown(&n, why),
        }
    }

    /// The followed pointer whose memory holds the pointer that address `x`
    /// goes through (`a[i][j]` of `double **a`), if any.
    fn loaded_from(&self, x: ExprId) -> Option<String> {
        match self.f.expr(x) {
            Expr::PtrAdd { base, .. } | Expr::Index(Index { base, .. }) => self.loaded_from(*base),
            Expr::Cast(b) => self.loaded_from(*b),
            Expr::Load(y) => self.chain(*y, &mut vec![]).map(|(n, _, _)| n),
            Expr::Local(l) => self.single(*l).and_then(|v| self.loaded_from(v)),
            _ => None,
        }
    }

    /// The bytes a store of `size` bytes at offset `off` writes in all,
    /// when it writes every byte from its least offset on without a gap:
    /// each loop variable steps by one and multiplies the bytes the loops
    /// inside it cover (`a[i*m + j]` over `j < m`), with rectangular bounds.
    fn cover(&self, off: &Affine, size: u64) -> Option<Poly> {
        let mut len = Poly::konst(i128::from(size));
        let mut vars = off.vars.clone();
        while !vars.is_empty() {
            let v = *vars.iter().find(|(_, c)| **c == len)?.0;
            vars.remove(&v);
            let lv = self.loops.get(&v)?.as_ref().ok()?;
            if !lv.unit || !lv.lo.vars.is_empty() || !lv.hi.vars.is_empty() {
                return None;
            }
            let trip = lv.hi.konst.sub(&lv.lo.konst)?.add(&Poly::konst(1))?;
            len = len.mul(&trip)?;
        }
        Some(len)
    }

    /// The least and greatest-plus-`size` byte offsets `off` takes over the
    /// loops, and the guards assumed.
    fn reach(&self, off: &Affine, size: u64) -> R<(Poly, Poly, Vec<Poly>)> {
        let mut guards = vec![];
        let lo = self.bound(off, false, &mut guards)?;
        let hi = self.bound(off, true, &mut guards)?;
        let end = hi
            .add(&Poly::konst(i128::from(size)))
            .ok_or_else(overflow)?;
        Ok((lo, end, guards))
    }

    /// The least (greatest with `max`) value of `a`, eliminating the loop
    /// variables innermost first.
    fn bound(&self, a: &Affine, max: bool, guards: &mut Vec<Poly>) -> R<Poly> {
        let mut a = a.clone();
        loop {
            let deepest = a.vars.keys().copied().max_by_key(|v| {
                self.loops
                    .get(v)
                    .and_then(|l| l.as_ref().ok())
                    .map_or(0, |l| l.depth)
            });
            let Some(v) = deepest else {
                return Ok(a.konst);
            };
            let lv = match self.loops.get(&v) {
                Some(Ok(lv)) => lv.clone(),
                Some(Err(why)) => return Err(why.clone()),
                None => return Err(format!("'{}' is not a loop variable", self.name(v))),
            };
            let c = a.vars.remove(&v).unwrap_or_default();
            let upper = match c.as_const() {
                Some(k) => (k >= 0) == max,
                None if c.all_negative() => {
                    let g = c.scale(-1).ok_or_else(overflow)?;
                    if !guards.contains(&g) {
                        guards.push(g);
                    }
                    !max
                }
                None => {
                    if !guards.contains(&c) {
                        guards.push(c.clone());
                    }
                    max
                }
            };
            let b = if upper { &lv.hi } else { &lv.lo };
            a = a
                .add(&b.times(&c).ok_or_else(overflow)?)
                .ok_or_else(overflow)?;
        }
    }

    /// A counted loop's variable, with the bounds of `var cmp limit` from
    /// `init` (inclusive), at `depth`; the loop itself assigns it
    /// `assigns` times (a `while` loop's init and step: 2).
    fn loop_var(
        &mut self,
        var: LocalId,
        (init, cmp, limit): (ExprId, LoopCmp, ExprId),
        (depth, unit): (usize, bool),
        assigns: usize,
    ) {
        let r = (|| {
            let i = self.aff(init, &mut vec![])?;
            let l = self.aff(limit, &mut vec![])?;
            let one = Affine::konst(Poly::konst(1));
            let minus_one = Affine::konst(Poly::konst(-1));
            let (lo, hi) = match cmp {
                LoopCmp::Lt => (i, l.add(&minus_one).ok_or_else(overflow)?),
                LoopCmp::Le => (i, l),
                LoopCmp::Gt => (l.add(&one).ok_or_else(overflow)?, i),
                LoopCmp::Ge => (l, i),
            };
            Ok(LoopVar {
                lo,
                hi,
                depth,
                unit,
            })
        })();
        let r = if self.assigned.get(&var).map_or(0, Vec::len) != assigns
            || self.other_writes.contains(&var)
        {
            Err(format!(
                "the loop variable '{}' changes in the loop",
                self.name(var)
            ))
        } else {
            r
        };
        self.loops.insert(var, r);
    }

    /// `prev` (`v = init`) and `while (v cmp limit) { …; step: v += c }`
    /// (or `{ …; v += c; }`) as a counted loop over `v`.
    fn while_loop(
        &mut self,
        prev: Option<&Stmt>,
        cond: ExprId,
        (body, step): (&[Stmt], &[Stmt]),
    ) -> bool {
        let Some(Stmt::Assign {
            local: v,
            value: init,
        }) = prev
        else {
            return false;
        };
        let v = *v;
        if self.assigned.get(&v).map_or(0, Vec::len) != 2 || self.other_writes.contains(&v) {
            return false;
        }
        let Expr::Cmp { op, lhs, rhs } = self.f.expr(strip_casts(self.f, cond)).clone() else {
            return false;
        };
        if !matches!(self.f.expr(strip_casts(self.f, lhs)), Expr::Local(l) if *l == v) {
            return false;
        }
        // The increment: in the step (a `for`), or the body's last statement
        // (a `while`: every use of v in the body comes before it).
        let is_inc = |s: &&Stmt| matches!(s, Stmt::Assign { local, .. } if *local == v);
        let inc = match step.iter().rev().find(is_inc) {
            Some(s) => Some(s),
            None => body.last().filter(is_inc),
        };
        let Some(Stmt::Assign { value: next, .. }) = inc else {
            return false;
        };
        // The step, with v a variable for now: v + c.
        self.loops.insert(
            v,
            Ok(LoopVar {
                lo: Affine::default(),
                hi: Affine::default(),
                depth: self.depth + 1,
                unit: false,
            }),
        );
        let inc = self.aff(*next, &mut vec![]);
        self.loops.remove(&v);
        let Ok(inc) = inc else {
            return false;
        };
        let c = match (
            inc.vars.len(),
            inc.vars.get(&v).and_then(Poly::as_const),
            inc.konst.as_const(),
        ) {
            (1, Some(1), Some(c)) => c,
            _ => return false,
        };
        let cmp = match op {
            CmpOp::Lt if c > 0 => LoopCmp::Lt,
            CmpOp::Le if c > 0 => LoopCmp::Le,
            CmpOp::Gt if c < 0 => LoopCmp::Gt,
            CmpOp::Ge if c < 0 => LoopCmp::Ge,
            _ => return false,
        };
        // Its body is one level deeper.
        self.loop_var(v, (*init, cmp, rhs), (self.depth + 1, c.abs() == 1), 2);
        true
    }

    fn block(&mut self, b: &[Stmt]) {
        for (k, s) in b.iter().enumerate() {
            if let Stmt::While { cond, body, step } = s {
                let prev = k.checked_sub(1).and_then(|p| b.get(p));
                let counted = self.while_loop(prev, *cond, (body, step));
                self.value(*cond);
                let c = usize::from(!counted);
                self.conditional += c;
                self.depth += 1;
                self.block(body);
                self.block(step);
                self.depth -= 1;
                self.conditional -= c;
                continue;
            }
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Assign { local, value } => {
                // A pointer local standing for an address of a followed
                // pointer: its uses are accounted for where they are.
                let alias = matches!(self.f.local(*local).ty, Type::Ptr(_))
                    && self.single(*local).is_some();
                match self.chain(*value, &mut vec![]) {
                    Some((_, _, idx)) if alias => idx.into_iter().for_each(|i| self.value(i)),
                    _ => self.value(*value),
                }
            }
            Stmt::Store { ptr, value } | Stmt::AtomicStore { ptr, value } => {
                self.access(*ptr, (false, true), None);
                self.value(*value);
            }
            Stmt::AtomicRmw { ptr, value, .. } => {
                self.access(*ptr, (true, true), None);
                self.value(*value);
            }
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                ..
            } => {
                self.access(*ptr, (true, true), None);
                self.value(*expected);
                self.value(*desired);
            }
            Stmt::AtomicLoad { ptr, .. } => self.access(*ptr, (true, false), None),
            Stmt::Copy { dst, src, bytes } => {
                self.access(*dst, (false, true), Some(*bytes));
                self.access(*src, (true, false), Some(*bytes));
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                single,
            } => {
                self.value(*cond);
                // One thread performs what the others run redundantly (a
                // single-thread guard, as `schedule` makes them; IR written
                // with the guards resolved): not a condition on whether it
                // happens.
                let c = usize::from(!*single);
                self.conditional += c;
                self.block(then);
                self.block(otherwise);
                self.conditional -= c;
            }
            Stmt::Loop(l) => {
                for e in [l.init, l.limit, l.step] {
                    self.value(e);
                }
                self.depth += 1;
                let unit = self.unit_step(l.step);
                self.loop_var(l.var, (l.init, l.cmp, l.limit), (self.depth, unit), 0);
                for h in &l.collapsed {
                    for e in [h.init, h.limit, h.step] {
                        self.value(e);
                    }
                    let unit = self.unit_step(h.step);
                    self.loop_var(h.var, (h.init, h.cmp, h.limit), (self.depth, unit), 0);
                }
                self.block(&l.body);
                for r in &l.reductions {
                    if let RedTarget::Memory(p) = r.target {
                        self.access(p, (true, true), None);
                    }
                }
                self.depth -= 1;
            }
            // (Visited by `block`, which sees the statement before it.)
            Stmt::While { .. } => self.block(std::slice::from_ref(s)),
            Stmt::Switch { value, arms } => {
                self.value(*value);
                self.conditional += 1;
                for a in arms {
                    self.block(&a.body);
                }
                self.conditional -= 1;
            }
            Stmt::Return(Some(e)) => self.value(*e),
            Stmt::Call { args, .. } | Stmt::Print { args, .. } => {
                for a in args {
                    self.value(*a);
                }
            }
            // One thread performs what the others run redundantly: not a
            // condition on whether it happens.
            Stmt::Block(b) | Stmt::Single(b) | Stmt::Broadcast { performed: b, .. } => {
                self.block(b)
            }
            Stmt::Return(None) | Stmt::Break | Stmt::Continue | Stmt::Barrier(_) | Stmt::Fence => {}
        }
    }
}

impl Walk<'_> {
    /// Whether a loop step is the constant 1 or -1.
    fn unit_step(&self, step: ExprId) -> bool {
        self.aff(step, &mut vec![])
            .ok()
            .filter(|a| a.vars.is_empty())
            .and_then(|a| a.konst.as_const())
            .is_some_and(|c| c.abs() == 1)
    }
}

fn overflow() -> String {
    "its subscripts are too large to bound".to_string()
}

/// An integer literal's value (its bit pattern read in its type).
fn int_value(v: i128, ty: &Type) -> i128 {
    match ty {
        Type::Int(k) if k.is_signed() && k.bits() < 128 => {
            let bits = k.bits();
            let m = v & ((1i128 << bits) - 1);
            if m >= 1i128 << (bits - 1) {
                m - (1i128 << bits)
            } else {
                m
            }
        }
        _ => v,
    }
}

/// `e` without the integer and truth-value conversions around it.
fn strip_casts(f: &Function, mut e: ExprId) -> ExprId {
    while let Expr::Cast(x) = f.expr(e) {
        if !(f.ty(*x).is_int() && f.ty(e).is_int()) {
            break;
        }
        e = *x;
    }
    e
}
