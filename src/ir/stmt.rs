//! IR statements: structured control flow over locals and device memory.
//!
//! Owns: [`Stmt`], [`Block`], the counted [`Loop`] with its [`Parallelism`]
//! and, on planned loops, what the launch geometry reads ([`LoopSizes`]),
//! the [`SwitchArm`]s of a `switch`.

use super::expr::ExprId;
use super::function::LocalId;
use super::hostexpr::UserExpr;
use super::reduce::Reduction;
use super::SrcLoc;

/// A sequence of statements.
pub type Block = Vec<Stmt>;

/// How the comparison of a counted loop reads: `var <cmp> limit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopCmp {
    Lt,
    Le,
    Gt,
    Ge,
}

/// The header of a loop collapsed into an outer [`Loop`].
#[derive(Clone, Debug, PartialEq)]
pub struct LoopHeader {
    pub var: LocalId,
    pub init: ExprId,
    pub cmp: LoopCmp,
    pub limit: ExprId,
    pub step: ExprId,
}

/// The parallelism a loop was given (by clauses or by the front end's
/// choice), with the launch axes that carry it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Parallelism {
    /// Runs sequentially in each thread that reaches it.
    #[default]
    Seq,
    /// Iterations are shared among gangs (blocks along grid dimension
    /// `gang`: 0 = x, 1 = y, 2 = z), workers (threads along block y) and/or
    /// vector lanes (threads along block dimension `vector`); at least one
    /// is set. Levels combine gang-major, vector-minor.
    Par {
        gang: Option<u8>,
        worker: bool,
        vector: Option<u8>,
    },
}

impl Parallelism {
    /// The OpenACC parallel construct's mapping: gang → grid x, worker →
    /// block y, vector → block x.
    pub fn levels(gang: bool, worker: bool, vector: bool) -> Parallelism {
        if !(gang || worker || vector) {
            return Parallelism::Seq;
        }
        Parallelism::Par {
            gang: gang.then_some(0),
            worker,
            vector: vector.then_some(0),
        }
    }

    /// The block dimensions (x, y, z) the loop partitions over threads:
    /// its vector dimension and, for workers, y.
    pub fn thread_dims(self) -> [bool; 3] {
        let mut d = [false; 3];
        if let Parallelism::Par { worker, vector, .. } = self {
            d[1] |= worker;
            if let Some(v) = vector {
                d[usize::from(v).min(2)] = true;
            }
        }
        d
    }

    /// (gang, worker, vector) as flags.
    pub fn flags(self) -> (bool, bool, bool) {
        match self {
            Parallelism::Seq => (false, false, false),
            Parallelism::Par {
                gang,
                worker,
                vector,
            } => (gang.is_some(), worker, vector.is_some()),
        }
    }
}

/// A counted C loop `for (var = init; var cmp limit; var += step)`, as the
/// OpenACC loop construct requires: `init`, `limit` and `step` are evaluated
/// once, before the first iteration; `step` is non-zero, positive for `<`/`<=`
/// and negative for `>`/`>=`. `init`, `limit` and `step` have `var`'s type.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    /// The loop index (private to each iteration's thread).
    pub var: LocalId,
    pub init: ExprId,
    pub cmp: LoopCmp,
    pub limit: ExprId,
    pub step: ExprId,
    /// `collapse(n)`: the n - 1 loops tightly nested in this one, outer to
    /// inner, whose iterations join this loop's into one space (their
    /// bounds do not use the outer indices; they are evaluated once, with
    /// this loop's).
    pub collapsed: Vec<LoopHeader>,
    /// `tile(…)`: the sizes of the tiles, one per loop of the nest (this
    /// one, then the collapsed ones); the gang level (if any) shares the
    /// tiles, the worker and vector levels the elements of a tile. Empty:
    /// not tiled. `None`: `*`, the size left to `schedule::tile::sizes`.
    pub tile: Vec<Option<u32>>,
    /// `gang(static:n)`: the gangs take chunks of `n` consecutive
    /// iterations, round-robin (`Some(0)`: `static:*`, one chunk per gang).
    pub chunk: Option<u32>,
    pub body: Block,
    pub par: Parallelism,
    /// `reduction(…)`: the body accumulates into each reduction's private
    /// local; after the loop the threads' partial values are combined into
    /// its target (see [`Reduction`]).
    pub reductions: Vec<Reduction>,
    /// Where the loop is in the source (for remarks and errors).
    pub loc: SrcLoc,
    /// On the loops the front end planned (the construct's loops, with a
    /// loop directive or partitioned in `kernels`): what the launch
    /// geometry reads of them (`schedule::geometry`). `None` on loops
    /// lowering makes (a region's loop over gangs for its reductions).
    pub sizes: Option<Box<LoopSizes>>,
    /// What the loop's directive asks (`None`: a loop without one, e.g. a
    /// plain `for` loop of a `kernels` construct that the compiler may
    /// partition on its own). A fact of the source, which the decision in
    /// `par` reads; `schedule` and the validator check `par` against it.
    pub directive: Option<LoopDirective>,
    /// On a loop without directive whose levels are undecided (a plain
    /// `for` of a `kernels` construct): the loop as C writes it, which
    /// runs instead when the decision leaves the loop sequential
    /// (`schedule::plan_levels`): C's semantics, the bounds evaluated in
    /// every iteration, the variable the source's. Shares [`Loop::body`]
    /// (and its variable, where the loop declares it). Not in the text
    /// form, nor seen by the walks of a body ([`Stmt::blocks`]: the
    /// analyses before the decision see the counted loop).
    pub c_form: Option<Box<CForm>>,
    /// The variables of the `cache` directive at the top of the body (a
    /// hint: see [`CacheVar`]); `schedule` consumes them.
    pub cache: Vec<super::cache::CacheVar>,
}

/// A `for` loop as C writes it: `init`, then while `cond` (after `head`,
/// at the top of each iteration) the loop's body, then `step`.
#[derive(Clone, Debug, PartialEq)]
pub struct CForm {
    /// The initialisation, before the loop.
    pub init: Block,
    /// The condition, before each iteration.
    pub cond: ExprId,
    /// Statements before the body in each iteration (a condition with
    /// side effects is tested there, `cond` then being true).
    pub head: Block,
    /// The step, after each iteration.
    pub step: Block,
    /// The locals only this form uses (temporaries of its parts), and
    /// those only the counted loop's header uses: unused, and removed,
    /// once the decision has chosen the other.
    pub own: Vec<LocalId>,
    pub counted: Vec<LocalId>,
}

impl CForm {
    /// The statements that run a loop of body `body` as C writes it: the
    /// initialisation, then a [`Stmt::While`].
    pub fn into_stmts(self, body: Block) -> Vec<Stmt> {
        let CForm {
            init,
            cond,
            mut head,
            step,
            ..
        } = self;
        head.extend(body);
        let mut out = init;
        out.push(Stmt::While {
            cond,
            body: head,
            step,
        });
        out
    }
}

/// The clauses of a loop directive that ask for levels or say how to
/// decide them: facts of the source, not decisions (those are
/// [`Loop::par`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopDirective {
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
    /// `gang(dim:n)`, as a grid dimension index (0 for `dim:1`).
    pub gang_dim: Option<u8>,
    pub seq: bool,
    pub auto: bool,
    pub independent: bool,
}

impl Loop {
    /// Whether it is the loop over the gangs lowering makes of a region
    /// that reduces (`0 .. nctaid.x`, decided when made: no candidate of
    /// the loop-level decision).
    pub fn over_gangs(&self, f: &super::Function) -> bool {
        matches!(
            f.expr(self.limit),
            super::Expr::Special(super::Special::GridDim(_))
        )
    }

    /// The loop over the gangs (`gang = 0 .. nctaid.x`, one iteration a
    /// gang), partitioned as `par`, that lowering makes of a construct's
    /// reductions and the schedule of a promoted nested gang reduction; its
    /// body is the caller's to fill (after, so that the loop's variable is
    /// made before the body's locals).
    pub fn over_the_gangs(
        f: &mut super::Function,
        par: Parallelism,
        reductions: Vec<Reduction>,
        loc: SrcLoc,
    ) -> Loop {
        let u32t = super::Type::Int(super::IntKind::U32);
        let var = f.new_local("gang", u32t.clone());
        let init = f.int(0, u32t.clone());
        let limit = f.add(
            super::Expr::Special(super::Special::GridDim(0)),
            u32t.clone(),
        );
        let step = f.int(1, u32t);
        Loop {
            reductions,
            loc,
            ..Loop::counted(var, [init, limit, step], par, vec![])
        }
    }

    /// The loop `for var = init; var < limit; var += step` partitioned as
    /// `par` over `body`: no collapse, tile, chunk, reduction, directive or
    /// sizes, at no source location.
    pub fn counted(
        var: LocalId,
        [init, limit, step]: [ExprId; 3],
        par: Parallelism,
        body: Block,
    ) -> Loop {
        Loop {
            var,
            init,
            cmp: LoopCmp::Lt,
            limit,
            step,
            collapsed: vec![],
            tile: vec![],
            chunk: None,
            body,
            par,
            reductions: vec![],
            loc: SrcLoc::default(),
            sizes: None,
            directive: None,
            c_form: None,
            cache: vec![],
        }
    }
}

impl LoopDirective {
    /// Whether the directive names a level (gang, worker or vector).
    pub fn explicit(&self) -> bool {
        self.gang || self.worker || self.vector
    }
}

/// What a planned loop tells the launch geometry: facts of the source,
/// not decisions. Host expressions are located at the loop (`trip`) or at
/// the clause's argument.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoopSizes {
    /// The trip count (of the whole nest, when collapsed: the product of
    /// its loops') as a host expression, when its bounds can be evaluated
    /// where the construct is (free of side effects, of the region's names
    /// and of the collapsed loops' variables).
    pub trip: Option<UserExpr>,
    /// The trip count when the bounds and steps are integer literals (the
    /// product over a collapsed nest).
    pub const_trip: Option<u64>,
    /// The size the loop's clauses ask for its gang level (`gang(num:)`).
    pub gang: Option<UserExpr>,
    /// `worker(num:)`.
    pub worker: Option<UserExpr>,
    /// `vector(length:)`.
    pub vector: Option<UserExpr>,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `local = value`.
    Assign { local: LocalId, value: ExprId },
    /// `*ptr = value`.
    Store { ptr: ExprId, value: ExprId },
    /// `if (cond) then else otherwise`; `cond` is a `bool`.
    If {
        cond: ExprId,
        then: Block,
        otherwise: Block,
        /// A single-thread guard (`schedule::single` makes them from
        /// [`Stmt::Single`]; text form `if single …`): `cond` only says
        /// which of the threads that run this code redundantly performs
        /// `then` (`otherwise` is empty), not whether it happens, so
        /// analyses and the fences read `then` as unconditional code one
        /// thread runs alone.
        single: bool,
    },
    /// A counted loop; only before `schedule`, which turns every one into a
    /// [`Stmt::While`].
    Loop(Loop),
    /// `while (cond) { body; step }`: `continue` in `body` goes to `step`,
    /// `break` in `body` or in `step` leaves the loop (a `do … while` puts
    /// its test in `step`). `cond` is re-evaluated before each iteration.
    /// `step` holds no `continue`.
    While {
        cond: ExprId,
        body: Block,
        step: Block,
    },
    /// C's `switch`: control enters the first arm that lists the value of
    /// `value` (an integer), else the arm marked `default`, else skips the
    /// statement; from an arm it falls through into the next one, in order.
    /// `break` in an arm leaves the switch.
    Switch { value: ExprId, arms: Vec<SwitchArm> },
    /// Leave the innermost `While` or `Switch`.
    Break,
    /// Go to the `step` of the innermost `While`.
    Continue,
    /// Leave the kernel (this thread) or the device function, with the
    /// function's result (of its return type) when it has one.
    Return(Option<ExprId>),
    /// Call device function `func` (an index into [`Module::functions`])
    /// with `args` (of the parameter types, in order), assigning the result
    /// to `result` (of the return type) when given. `loc`: where the
    /// source calls (for the validator's check of the callee's level
    /// against the loops around; empty where unknown).
    ///
    /// [`Module::functions`]: super::Module::functions
    Call {
        func: usize,
        args: Vec<ExprId>,
        result: Option<LocalId>,
        loc: SrcLoc,
    },
    /// Wait until the threads of `scope` reach this point, with their
    /// memory effects visible: between a loop partitioned over threads and
    /// the code around it, which one thread performs. Only where every
    /// thread of the scope arrives.
    Barrier(BarrierScope),
    /// Copy `bytes` bytes from the address `src` to the address `dst` (struct
    /// assignment); the ranges do not overlap or are equal.
    Copy {
        dst: ExprId,
        src: ExprId,
        bytes: u64,
    },
    /// `printf(format, args…)` on the device: `format` holds the C format
    /// string's bytes (no terminating NUL), `args` are already promoted as
    /// C promotes variadic arguments (32- and 64-bit integers, `f64`,
    /// pointers).
    Print { format: Vec<u8>, args: Vec<ExprId> },
    /// Atomically `*ptr = *ptr op value` (`ptr<T>`, `T` an integer of 32 or
    /// 64 bits; `Min`/`Max` by its signedness; `Add`, `Sub` and `Exchange`
    /// also on `f32`/`f64`), the old value into `old`.
    AtomicRmw {
        op: AtomicOp,
        ptr: ExprId,
        value: ExprId,
        old: Option<LocalId>,
    },
    /// Atomically: if `*ptr` holds `expected` (bit for bit), store
    /// `desired`; `old` gets the value found, `ok` (`bool`) whether the
    /// store happened (`ptr<T>`, `T` any integer or floating type; types
    /// narrower than 32 bits go through their 32-bit word).
    AtomicCas {
        ptr: ExprId,
        expected: ExprId,
        desired: ExprId,
        old: LocalId,
        ok: LocalId,
    },
    /// `dst = *ptr`, read in one piece (an `atomic read`).
    AtomicLoad { ptr: ExprId, dst: LocalId },
    /// `*ptr = value`, written in one piece (an `atomic write`).
    AtomicStore { ptr: ExprId, value: ExprId },
    /// This thread's earlier writes to device memory are visible to every
    /// thread of the device before its later ones (`__threadfence()`).
    Fence,
    /// A nested block.
    Block(Block),
    /// Statements performed by one thread where several run this code
    /// redundantly (a store, an atomic, a `printf` outside the loops that
    /// partition the threads): `schedule` guards them with the
    /// [`Special::Performs`] conditions of their position, or leaves them
    /// unguarded where every thread runs its own iteration. Only before
    /// `schedule`.
    ///
    /// [`Special::Performs`]: super::Special::Performs
    Single(Block),
    /// `performed` is single code ([`Stmt::Single`]) that computes `value`
    /// (an atomic capture into a variable of each thread); afterwards every
    /// thread that runs this code holds it. `schedule` passes it through a
    /// slot of shared memory between two barriers of the threads that run
    /// the code redundantly (see [`broadcast_scope`]), or, where no barrier
    /// covers exactly them (or one thread runs the code, or a routine's
    /// caller decides who performs), makes it plain single code: there only
    /// the performing thread holds the value. Only before `schedule`.
    Broadcast { value: LocalId, performed: Block },
}

/// The barrier at which the threads that run code redundantly meet to
/// share a [`Stmt::Broadcast`]'s value, inside loops partitioning the block
/// dimensions `outer` (see [`Parallelism::thread_dims`]): the whole block
/// outside loops partitioned over threads; a worker's vector lanes (one
/// row: they share their block y and z indices) inside a worker loop
/// (block y; block z is 1 but in kernels mappings that partition it
/// outside); else none.
pub fn broadcast_scope(outer: [bool; 3]) -> Option<BarrierScope> {
    match outer {
        [false, false, false] => Some(BarrierScope::Block),
        [false, true, _] => Some(BarrierScope::Row),
        _ => None,
    }
}

/// Whether a [`Stmt::Broadcast`] of `b` (a body outside every loop) meets at
/// a row barrier.
pub fn broadcasts_in_rows(b: &[Stmt]) -> bool {
    fn walk(b: &[Stmt], outer: [bool; 3]) -> bool {
        b.iter().any(|s| match s {
            Stmt::Broadcast { .. } => broadcast_scope(outer) == Some(BarrierScope::Row),
            Stmt::Loop(l) => {
                let mine = l.par.thread_dims();
                walk(&l.body, std::array::from_fn(|d| outer[d] || mine[d]))
            }
            s => s.blocks().into_iter().any(|b| walk(b, outer)),
        })
    }
    walk(b, [false; 3])
}

impl Stmt {
    /// The expression trees this statement holds itself (not those of the
    /// statements nested in it), in evaluation order: what every walk that
    /// asks "which expressions does this statement evaluate" reads.
    pub fn roots(&self) -> Vec<ExprId> {
        match self {
            Stmt::Assign { value, .. } => vec![*value],
            Stmt::Store { ptr, value } | Stmt::AtomicStore { ptr, value } => vec![*ptr, *value],
            Stmt::If { cond, .. } | Stmt::While { cond, .. } => vec![*cond],
            Stmt::Loop(l) => {
                let mut v = vec![l.init, l.limit, l.step];
                for h in &l.collapsed {
                    v.extend([h.init, h.limit, h.step]);
                }
                v.extend(l.reductions.iter().filter_map(|r| match r.target {
                    super::RedTarget::Memory(p) => Some(p),
                    super::RedTarget::Local(_) => None,
                }));
                v
            }
            Stmt::Switch { value, .. } => vec![*value],
            Stmt::Return(v) => v.iter().copied().collect(),
            Stmt::Call { args, .. } | Stmt::Print { args, .. } => args.clone(),
            Stmt::Copy { dst, src, .. } => vec![*dst, *src],
            Stmt::AtomicRmw { ptr, value, .. } => vec![*ptr, *value],
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                ..
            } => vec![*ptr, *expected, *desired],
            Stmt::AtomicLoad { ptr, .. } => vec![*ptr],
            Stmt::Break
            | Stmt::Continue
            | Stmt::Barrier(_)
            | Stmt::Fence
            | Stmt::Block(_)
            | Stmt::Single(_)
            | Stmt::Broadcast { .. } => vec![],
        }
    }

    /// The blocks nested in this statement itself, to rewrite them (as
    /// [`Stmt::blocks`]).
    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            Stmt::If {
                then, otherwise, ..
            } => vec![then, otherwise],
            Stmt::Loop(l) => vec![&mut l.body],
            Stmt::While { body, step, .. } => vec![body, step],
            Stmt::Switch { arms, .. } => arms.iter_mut().map(|a| &mut a.body).collect(),
            Stmt::Block(b) | Stmt::Single(b) | Stmt::Broadcast { performed: b, .. } => vec![b],
            _ => vec![],
        }
    }

    /// The blocks nested in this statement itself, in order (a loop's body,
    /// an `if`'s two branches, a `while`'s body and step, a switch's arms).
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            Stmt::If {
                then, otherwise, ..
            } => vec![then, otherwise],
            Stmt::Loop(l) => vec![&l.body],
            Stmt::While { body, step, .. } => vec![body, step],
            Stmt::Switch { arms, .. } => arms.iter().map(|a| &a.body).collect(),
            Stmt::Block(b) | Stmt::Single(b) | Stmt::Broadcast { performed: b, .. } => vec![b],
            Stmt::Assign { .. }
            | Stmt::Store { .. }
            | Stmt::Break
            | Stmt::Continue
            | Stmt::Return(_)
            | Stmt::Call { .. }
            | Stmt::Copy { .. }
            | Stmt::Print { .. }
            | Stmt::AtomicRmw { .. }
            | Stmt::AtomicCas { .. }
            | Stmt::AtomicLoad { .. }
            | Stmt::AtomicStore { .. }
            | Stmt::Fence
            | Stmt::Barrier(_) => vec![],
        }
    }
}

/// The operation of a [`Stmt::AtomicRmw`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Sub,
    Min,
    Max,
    And,
    Or,
    Xor,
    /// Store `value`, returning the old value.
    Exchange,
    /// `old >= value ? 0 : old + 1` (unsigned 32-bit: CUDA's `atomicInc`).
    IncWrap,
}

/// Which threads a [`Stmt::Barrier`] synchronises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierScope {
    /// Every thread of the block (gang).
    Block,
    /// The threads that share their block y and z indices (one worker's
    /// vector lanes): a named barrier of `ntid.x` threads when that is a
    /// multiple of the warp size, a warp-level sync of the row's lanes when
    /// it divides it (other vector lengths have no such barrier: none).
    Row,
}

/// One arm of a [`Stmt::Switch`]: its case labels and the statements up to
/// the next label.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchArm {
    /// The `case` values (already converted to the promoted type of the
    /// controlling expression, as two's-complement bit patterns).
    pub values: Vec<i128>,
    /// The arm also carries the `default` label.
    pub default: bool,
    pub body: Block,
}

/// The locals block `b` assigns (with repeats): by `Assign`, as a call's
/// result, an atomic's old value or a broadcast. Not loop indices.
pub fn assigned_locals(b: &[Stmt]) -> Vec<LocalId> {
    let mut out = vec![];
    walk_stmts(b, &mut |s| match s {
        Stmt::Assign { local, .. } => out.push(*local),
        Stmt::Call {
            result: Some(r), ..
        } => out.push(*r),
        Stmt::AtomicRmw { old: Some(o), .. } => out.push(*o),
        Stmt::AtomicCas { old, ok, .. } => out.extend([*old, *ok]),
        Stmt::AtomicLoad { dst, .. } => out.push(*dst),
        Stmt::Broadcast { value, .. } => out.push(*value),
        _ => {}
    });
    out
}

/// Calls `f` on every statement of `b` and of the blocks nested in it, in
/// pre-order (a loop before its body).
pub fn walk_stmts(b: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in b {
        f(s);
        for inner in s.blocks() {
            walk_stmts(inner, f);
        }
    }
}
