//! Automatic privatisation on the IR: each partitioned loop gets its own
//! copy ([`localize`](super::localize::localize)) of every scalar of the
//! code around it that its body assigns before it reads it in every
//! iteration (`analysis::private`), that no clause of the loop already
//! handles (a reduction into it) and that no loop around already made
//! private (the only rule: the front end decides none). In the pipeline
//! ([`auto_privates`], run on the lowered module before analysis, after
//! [`implicit_reductions`](super::implicit_reductions)) it makes
//! the copies and their remarks, and finds the races each partitioned
//! loop leaves (assigned scalars it shares: `-Minfo` warns); the pass
//! tests run [`privatize`] alone.
//!
//! Loops left alone: sequential ones, and the loop over the gangs that
//! lowering makes of a construct with reductions (its limit is the grid
//! size): it is the construct, whose scalars are the region's.
//!
//! Owns: [`privatize`], [`auto_privates`]. May call: `ir`,
//! `analysis::private`, `localize`.

use super::localize::{localize, Start};
use crate::analysis::private::{loop_scalars, Scalar, Scope};
use crate::ir::{
    Block, Expr, Function, LocalId, Loop, Module, Parallelism, RedTarget, Special, SrcLoc, Stmt,
    Type,
};

/// A scalar, by name, at a loop's position.
pub type Named = (SrcLoc, String);

/// The automatic privatisation of the pipeline: [`privatize`], with the
/// variables the data clauses of each kernel's construct name shared on
/// purpose ([`crate::ir::host::HostPlan::clause_vars`]: `copy(stop)` of a flag
/// any iteration may set); then the parameters it left unused go
/// (`prune.rs`). Returns what it privatised, as [`privatize`], and the
/// races it leaves: each partitioned loop's scalars (of arithmetic type)
/// that it assigns and leaves shared — not written first (or shared on
/// purpose), not reduced — in the same order (`-Minfo` warns of them).
pub fn auto_privates(m: &mut Module) -> (Vec<Named>, Vec<Named>) {
    let named: Vec<Vec<String>> = (0..m.kernels.len())
        .map(|k| {
            m.host
                .clause_vars(k)
                .into_iter()
                .map(String::from)
                .collect()
        })
        .collect();
    let shared = |k: usize, v: &str| named.get(k).is_some_and(|n| n.iter().any(|x| x == v));
    let unused = super::prune::unused_params(m);
    let mut races = vec![];
    let done = walk(m, &shared, &mut races);
    super::prune::prune(m, &unused);
    (done, races)
}

/// Privatises the written-first scalars of every partitioned loop of `m`;
/// `shared(kernel, name)`: the host scalar `name` of kernel number
/// `kernel` is shared on purpose (a data clause of its construct names
/// it), never privatised. Returns what it privatised: each loop's
/// position and the scalar's name, in pre-order.
pub fn privatize(m: &mut Module, shared: &dyn Fn(usize, &str) -> bool) -> Vec<(SrcLoc, String)> {
    walk(m, shared, &mut vec![])
}

/// [`privatize`], noting in `races` what each partitioned loop leaves
/// shared and assigns.
fn walk(
    m: &mut Module,
    shared: &dyn Fn(usize, &str) -> bool,
    races: &mut Vec<(SrcLoc, String)>,
) -> Vec<(SrcLoc, String)> {
    let mut done = vec![];
    for (n, k) in m.kernels.iter_mut().enumerate() {
        let scope = Scope::of_kernel(k);
        let keep = |s: Scalar| match s {
            Scalar::Cell(p) => k.params.iter().any(|q| q.local == p && shared(n, &q.name)),
            Scalar::Local(_) => false,
        };
        let mut w = Walk {
            scope: &scope,
            keep: &keep,
            made: vec![],
            done: &mut done,
            races: &mut *races,
        };
        w.block(&mut k.body, &[]);
    }
    for f in &mut m.functions {
        let scope = Scope::function(&f.params);
        let mut w = Walk {
            scope: &scope,
            keep: &|_| false,
            made: vec![],
            done: &mut done,
            races: &mut *races,
        };
        w.block(&mut f.body, &[]);
    }
    done
}

/// Where a block is in a function's body: for each step, a statement's
/// index and which of its blocks ([`Stmt::blocks`]).
pub(super) type Path = [(usize, usize)];

pub(super) fn block_at<'b>(b: &'b Block, path: &Path) -> &'b Block {
    match path.split_first() {
        None => b,
        Some(((i, j), rest)) => block_at(b[*i].blocks()[*j], rest),
    }
}

pub(super) fn block_at_mut<'b>(b: &'b mut Block, path: &Path) -> &'b mut Block {
    match path.split_first() {
        None => b,
        Some(((i, j), rest)) => {
            let mut blocks = b[*i].blocks_mut();
            block_at_mut(blocks.swap_remove(*j), rest)
        }
    }
}

struct Walk<'a> {
    scope: &'a Scope,
    keep: &'a dyn Fn(Scalar) -> bool,
    /// The copies made for loops around (not privatised again).
    made: Vec<LocalId>,
    done: &'a mut Vec<(SrcLoc, String)>,
    races: &'a mut Vec<(SrcLoc, String)>,
}

impl Walk<'_> {
    /// Privatises in the loops of the block at `path` of `f`'s body.
    fn block(&mut self, f: &mut Function, path: &Path) {
        let mut i = 0;
        while i < block_at(&f.body, path).len() {
            let chosen = match &block_at(&f.body, path)[i] {
                Stmt::Loop(lp) if partitioned(f, lp) => self.chosen(f, lp),
                _ => vec![],
            };
            let made_here = self.made.len();
            for (s, name, loc) in chosen {
                let mut body = std::mem::take(&mut f.body);
                let copy = localize(
                    f,
                    self.scope,
                    block_at_mut(&mut body, path),
                    i,
                    s,
                    Start::Undefined,
                );
                f.body = body;
                if let Some(copy) = copy {
                    self.made.push(copy);
                    self.done.push((loc, name));
                }
            }
            if let Stmt::Loop(lp) = &block_at(&f.body, path)[i] {
                if partitioned(f, lp) {
                    let found = self.races(f, lp);
                    self.races.extend(found);
                }
            }
            let blocks = block_at(&f.body, path)[i].blocks().len();
            for j in 0..blocks {
                let mut inner = path.to_vec();
                inner.push((i, j));
                self.block(f, &inner);
            }
            self.made.truncate(made_here);
            i += 1;
        }
    }

    /// Whether loop `lp` of `f` reduces into `s`.
    fn reduced(&self, f: &Function, lp: &Loop, s: &Scalar) -> bool {
        lp.reductions.iter().any(|r| match (&r.target, s) {
            (RedTarget::Local(l), Scalar::Local(x)) => l == x,
            (RedTarget::Memory(p), Scalar::Cell(c)) => self.scope.at(f, *p) == Some(*c),
            _ => false,
        })
    }

    /// The scalars of arithmetic type that loop `lp` of `f` (privatised)
    /// assigns and shares among its threads, by name, at the loop.
    fn races(&self, f: &Function, lp: &Loop) -> Vec<(SrcLoc, String)> {
        let facts = loop_scalars(f, self.scope, lp);
        facts
            .assigned
            .iter()
            .filter(|s| !self.reduced(f, lp, s))
            .filter(|s| !facts.written_first.contains(s) || (self.keep)(**s))
            .filter_map(|s| {
                let (Scalar::Local(l) | Scalar::Cell(l)) = *s;
                let ty = &f.local(l).ty;
                let ty = match s {
                    Scalar::Local(_) => ty,
                    Scalar::Cell(_) => ty.pointee().unwrap_or(ty),
                };
                let arithmetic = !matches!(ty, Type::Ptr(..));
                arithmetic.then(|| (lp.loc.clone(), f.local(l).name.clone()))
            })
            .collect()
    }

    /// The scalars loop `lp` of `f` privatises, with their names and the
    /// loop's position.
    fn chosen(&self, f: &Function, lp: &Loop) -> Vec<(Scalar, String, SrcLoc)> {
        loop_scalars(f, self.scope, lp)
            .written_first
            .into_iter()
            .filter(|s| !self.reduced(f, lp, s) && !(self.keep)(*s))
            .filter(|s| !matches!(s, Scalar::Local(l) if self.made.contains(l)))
            .map(|s| {
                let (Scalar::Local(l) | Scalar::Cell(l)) = s;
                (s, f.local(l).name.clone(), lp.loc.clone())
            })
            .collect()
    }
}

/// Whether `lp` is a partitioned loop of the code (not the loop over the
/// gangs of a construct with reductions).
pub(super) fn partitioned(f: &Function, lp: &Loop) -> bool {
    lp.par != Parallelism::Seq && !matches!(f.expr(lp.limit), Expr::Special(Special::GridDim(_)))
}
