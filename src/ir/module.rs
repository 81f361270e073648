//! The IR module: the kernels of one translation unit and how to launch them.
//!
//! Owns: [`Module`], [`Kernel`], [`ComputeKind`], [`Param`], [`Launch`], [`SizeClauses`],
//! and the device functions ([`DeviceFunction`]) that kernels call.

use super::function::{Function, LocalId};
use super::hostexpr::UserExpr;
use super::SrcLoc;

/// What the host passes for a kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamMode {
    /// The value of a host scalar (firstprivate).
    Value,
    /// A device address: the translation of a host pointer or array through
    /// the present table. (Whether the kernel writes through it is a fact
    /// of `analysis`, not of the IR.)
    DevicePtr,
    /// The device scratch memory the runtime lends the launch for the
    /// kernel's reductions across gangs (`ptr<u8>`; see [`Scratch`]).
    Scratch,
}

/// A kernel parameter, bound to a local of the kernel body.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Name of the host variable it carries (as written in the source).
    pub name: String,
    /// The local that holds it in the body.
    pub local: LocalId,
    pub mode: ParamMode,
    /// A [`ParamMode::DevicePtr`] whose memory is its own (recorded by
    /// lowering): the host variable is an array (not a parameter: C makes
    /// those pointers) or a `restrict` pointer, so no other parameter that
    /// is an array, a `restrict` pointer or a host scalar reaches its
    /// memory (distinct objects map to disjoint device memory; `restrict`
    /// is the program's promise). The dependence test's
    /// `HostKind::NoAlias`; `analysis::own_memory` says when the back end
    /// may tell LLVM (`noalias`). Text form: `deviceptr own`.
    pub own: bool,
}

/// One launch dimension's size as the construct asks for it: known at
/// compile time, a clause's size, or enough for a loop. How the host
/// computes it is the [`LaunchPlan`](super::LaunchPlan) of the kernel's
/// compute construct in the host plan (`schedule::launch`).
#[derive(Clone, Debug, PartialEq)]
pub enum GridSize {
    /// A constant.
    Const(u32),
    /// A size the user gave in a clause such as `num_gangs(n)`; where its
    /// value is not positive, `default` instead (a launch size is never 0).
    /// `warp`: then rounded to a power of two up to 32 or a multiple of 32
    /// (the lanes of a kernel whose reductions shuffle across warps). Block
    /// sizes a clause gives are fitted to the device's limits before the
    /// launch.
    Clause {
        expr: UserExpr,
        default: Box<GridSize>,
        warp: bool,
    },
    /// Enough gangs for a loop of `trip` iterations that is also
    /// partitioned over the block dimensions `threads` (a gang takes a
    /// block's worth of iterations). `trip: None`: not known where the
    /// construct is.
    FromTrip {
        trip: Option<UserExpr>,
        threads: Vec<u8>,
    },
}

/// Launch geometry of a kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// Number of gangs: blocks in x, y, z.
    pub grid: [GridSize; 3],
    /// Threads per block in x, y, z (vector lanes in x; workers in y).
    pub block: [GridSize; 3],
}

/// What a kernel promises the assembler about its launches, so that no
/// launch the runtime makes lacks registers: the back ends write it as
/// `.maxntid` / `__launch_bounds__` or `.maxnreg` / `__maxnreg__`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadBound {
    /// The block size is fixed at compile time: x, y, z threads.
    Block([u32; 3]),
    /// A block size known only in part at compile time: at most this many
    /// registers a thread, so that a block of the dimensions fixed at
    /// compile time fits an SM's registers. The runtime shrinks the other
    /// dimensions to what the kernel's registers allow
    /// (`__ptxrt_kernel_threads`, `__ptxrt_fit_block_to`).
    Registers(u32),
}

/// The registers of an SM (every NVIDIA GPU since sm_50 has 64K).
const SM_REGISTERS: u32 = 65536;

/// The most registers a thread of a block of `threads` threads may have
/// for the block to fit an SM's registers: they are allocated to whole
/// warps of 32, in units of 256 registers a warp, and a thread has at most
/// 255 (1024 threads: 64).
pub fn registers_for(threads: u32) -> u32 {
    let warps = threads.div_ceil(32).max(1);
    let per_warp = SM_REGISTERS / warps / 256 * 256;
    (per_warp / 32 / 8 * 8).min(255)
}

impl Kernel {
    /// One thread runs the body (a `serial` construct): no other thread
    /// runs it redundantly, so [`Stmt::Broadcast`] has nothing to share.
    ///
    /// [`Stmt::Broadcast`]: super::Stmt::Broadcast
    pub fn one_thread(&self) -> bool {
        self.kind == ComputeKind::Serial
    }

    /// The kernel's bound: its block when schedule fixed every dimension
    /// to a constant, else registers for a block of the dimensions it
    /// fixed (the others: one thread; the runtime fits them to the
    /// registers the kernel uses).
    pub fn thread_bound(&self) -> ThreadBound {
        match self.launch.as_ref().map(|l| &l.block) {
            Some([GridSize::Const(x), GridSize::Const(y), GridSize::Const(z)])
                if *x >= 1 && *y >= 1 && *z >= 1 =>
            {
                ThreadBound::Block([*x, *y, *z])
            }
            Some(block) => {
                let fixed = block
                    .iter()
                    .map(|g| match g {
                        GridSize::Const(n) => (*n).max(1),
                        _ => 1,
                    })
                    .fold(1u32, u32::saturating_mul);
                ThreadBound::Registers(registers_for(fixed))
            }
            None => ThreadBound::Registers(registers_for(1024)),
        }
    }
}

impl Launch {
    /// One gang of one thread (`serial`).
    pub fn single() -> Launch {
        let one = || GridSize::Const(1);
        Launch {
            grid: [one(), one(), one()],
            block: [one(), one(), one()],
        }
    }
}

/// The size clauses of a kernel's construct, as written (host expressions
/// located at each clause's argument): facts the launch geometry
/// (`schedule::geometry`) reads, which `schedule` consumes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SizeClauses {
    /// `num_gangs(…)`: one size per grid dimension given, x first.
    pub num_gangs: Vec<UserExpr>,
    pub num_workers: Option<UserExpr>,
    pub vector_length: Option<UserExpr>,
}

impl SizeClauses {
    /// No size clause.
    pub fn is_empty(&self) -> bool {
        self.num_gangs.is_empty() && self.num_workers.is_none() && self.vector_length.is_none()
    }
}

/// One compute construct outlined as a kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// Symbol name in the PTX (unique in the module).
    pub name: String,
    /// The construct as written ("parallel loop", "kernels", ...).
    pub construct: String,
    /// Where the construct is.
    pub loc: SrcLoc,
    pub params: Vec<Param>,
    pub body: Function,
    /// The construct's size clauses (emptied by `schedule`, which reads
    /// them into `launch`).
    pub sizes: SizeClauses,
    /// Its launch geometry: set by `schedule` (`schedule::geometry`) from
    /// the loops and `sizes`, unless given (the text form may give one);
    /// `None` before.
    pub launch: Option<Launch>,
    /// The scratch memory its reductions across gangs use, if any (then a
    /// parameter of mode [`ParamMode::Scratch`] receives it).
    pub scratch: Option<Scratch>,
    /// The kind of compute construct it comes from (set by lowering).
    pub kind: ComputeKind,
}

/// The compute construct a kernel comes from: what the launch geometry
/// (`schedule::geometry`) and single-thread code (`schedule::single`)
/// decide by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComputeKind {
    /// `parallel` (and `parallel loop`).
    Parallel,
    /// `kernels` (and `kernels loop`): each loop nest its own kernel.
    Kernels,
    /// `serial` (and `serial loop`): one gang of one thread.
    Serial,
}

impl ComputeKind {
    /// The text form's spelling.
    pub fn name(self) -> &'static str {
        match self {
            ComputeKind::Parallel => "parallel",
            ComputeKind::Kernels => "kernels",
            ComputeKind::Serial => "serial",
        }
    }

    /// The kind spelled `name` in the text form.
    pub fn named(name: &str) -> Option<ComputeKind> {
        [
            ComputeKind::Parallel,
            ComputeKind::Kernels,
            ComputeKind::Serial,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// The layout of a kernel's reduction scratch memory: `counters` 32-bit
/// counters (zero between launches: each use leaves its counter at zero),
/// then, from byte [`Scratch::SLOTS_AT`], `slots` arrays of one 8-byte
/// slot per gang (the gangs' partial results). The host asks the runtime
/// for `SLOTS_AT + 8 * slots * gangs` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scratch {
    pub counters: u32,
    pub slots: u32,
}

impl Scratch {
    /// Byte offset of the first slot array (room for 64 counters).
    pub const SLOTS_AT: u64 = 256;
    /// The most counters (reduction loops across gangs) one kernel may use.
    pub const MAX_COUNTERS: u32 = 64;
}

/// How a device function is visible outside its translation unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// Defined here, used only here (a `static` routine, or a function
    /// compiled for the device because a region here calls it).
    Internal,
    /// Defined here and visible to the device code of other translation
    /// units (a routine with external linkage).
    Export,
    /// Declared here, defined in another translation unit's device code.
    Import,
}

/// The parallelism a device function may use (its `routine` clause): the
/// outermost level its loops may be partitioned on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RoutineLevel {
    Seq,
    Vector,
    Worker,
    Gang,
}

/// What the device symbol of a C function starts with (`__accc_r_<name>`:
/// the same in every translation unit, so that they link).
pub const ROUTINE_SYMBOL_PREFIX: &str = "__accc_r_";

/// A function compiled for the device (`#pragma acc routine`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceFunction {
    /// Symbol name in the PTX (the C name, or the `bind` name).
    pub name: String,
    /// Where the function (or its routine directive) is.
    pub loc: SrcLoc,
    /// The parameters: locals of `body`, in call order. Only scalars and
    /// pointers (aggregates are passed by address).
    pub params: Vec<LocalId>,
    /// The result type (`Void` for none; never an aggregate).
    pub ret: super::Type,
    pub level: RoutineLevel,
    pub linkage: Linkage,
    /// The hidden `bool` parameters (three of `params`) by which the caller
    /// says, per block dimension (x, y, z), whether this thread performs the
    /// side effects of code the function's own loops do not partition
    /// along it (what [`Special::Performs`] and [`Stmt::Single`] become in
    /// the body). `None`: the thread always performs them.
    ///
    /// [`Special::Performs`]: super::Special::Performs
    /// [`Stmt::Single`]: super::Stmt::Single
    pub guards: Option<[LocalId; 3]>,
    /// The body (for [`Linkage::Import`], empty but for the parameter locals).
    pub body: Function,
}

impl DeviceFunction {
    /// The C function's name (its symbol without
    /// [`ROUTINE_SYMBOL_PREFIX`]), for messages.
    pub fn source_name(&self) -> &str {
        self.name
            .strip_prefix(ROUTINE_SYMBOL_PREFIX)
            .unwrap_or(&self.name)
    }
}

/// All device code of one translation unit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    /// Name of the source file (for messages and the image).
    pub source: String,
    pub kernels: Vec<Kernel>,
    /// Device functions that kernels (and other device functions) call.
    pub functions: Vec<DeviceFunction>,
    /// Device address cells (see [`Cell`]), by [`Expr::Cell`] index.
    ///
    /// [`Expr::Cell`]: super::Expr::Cell
    pub cells: Vec<Cell>,
    /// What the host does around the device code: the data movement,
    /// launches and waits of every construct (`codegen::host` writes it).
    pub host: super::host::HostPlan,
    /// The kernels and functions are in the form `schedule` leaves (no
    /// counted loop, no single-thread statement; launches computed): set
    /// by `schedule`, and by the text form's `scheduled` mark.
    pub scheduled: bool,
}

/// A pointer-sized device global the runtime fills with the device address
/// of a host global in an `acc declare` directive (ptxrt.h, `struct
/// __ptxrt_cell`): how device functions reach declared globals.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The global's symbol in the PTX (unique across linked images).
    pub symbol: String,
    /// The host global's C name (the host side takes its address).
    pub host: String,
}

impl Module {
    /// True when this module's device code must be linked with other
    /// translation units' (it imports or exports a device function).
    pub fn relocatable(&self) -> bool {
        self.functions
            .iter()
            .any(|f| f.linkage != Linkage::Internal)
    }

    /// True when kernel `k` may print (device `printf`), in its own code or
    /// in a device function it reaches through calls; a function of another
    /// translation unit (its body is not here) may. The host sees such
    /// output without a runtime call, so the construct's end must wait for
    /// the kernel (ptxrt.h, `__ptxrt_settle`).
    pub fn kernel_prints(&self, k: usize) -> bool {
        fn prints(b: &[super::Stmt], m: &Module, seen: &mut [bool]) -> bool {
            let mut found = false;
            super::walk_stmts(b, &mut |s| match s {
                super::Stmt::Print { .. } => found = true,
                super::Stmt::Call { func, .. } => {
                    if let Some(f) = m.functions.get(*func) {
                        if !seen[*func] {
                            seen[*func] = true;
                            found |= f.linkage == Linkage::Import || prints(&f.body.body, m, seen);
                        }
                    }
                }
                _ => {}
            });
            found
        }
        let mut seen = vec![false; self.functions.len()];
        self.kernels
            .get(k)
            .is_some_and(|kernel| prints(&kernel.body.body, self, &mut seen))
    }

    /// True when a device function of this module reaches itself through
    /// its calls (recursion, direct or mutual): its call depth, and so the
    /// stack a thread needs, is known only at run time, and the runtime
    /// raises the device's per-thread stack for the image (ptxrt.h,
    /// `PTXRT_IMAGE_RECURSIVE`). Calls to functions of other translation
    /// units are not followed (their bodies are not here).
    pub fn recursive(&self) -> bool {
        let callees: Vec<Vec<usize>> = self
            .functions
            .iter()
            .map(|f| {
                let mut v = vec![];
                super::walk_stmts(&f.body.body, &mut |s| {
                    if let super::Stmt::Call { func, .. } = s {
                        v.push(*func);
                    }
                });
                v
            })
            .collect();
        // Depth-first search colouring: 0 unseen, 1 on the path, 2 done; a
        // call to a function on the path closes a cycle.
        fn cycle(f: usize, callees: &[Vec<usize>], colour: &mut [u8]) -> bool {
            colour[f] = 1;
            for &g in &callees[f] {
                if colour[g] == 1 || (colour[g] == 0 && cycle(g, callees, colour)) {
                    return true;
                }
            }
            colour[f] = 2;
            false
        }
        let mut colour = vec![0u8; callees.len()];
        (0..callees.len()).any(|f| colour[f] == 0 && cycle(f, &callees, &mut colour))
    }
}

#[cfg(test)]
mod tests {
    use super::registers_for;

    #[test]
    fn registers_fit_the_fixed_block() {
        // Nothing fixed: ptxas's own limit; the runtime shrinks the block.
        assert_eq!(registers_for(1), 255);
        assert_eq!(registers_for(128), 255);
        assert_eq!(registers_for(256), 255);
        // 16 warps: 4096 registers each, 128 a thread; 12: 5376, 168.
        assert_eq!(registers_for(512), 128);
        assert_eq!(registers_for(384), 168);
        assert_eq!(registers_for(1024), 64);
    }
}
