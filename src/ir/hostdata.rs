//! The data attributes of a compute construct before they are decided
//! (issue 16): what the front end records of the host variables behind a
//! kernel's parameters — what only the C source says (their type's class,
//! whether they are const, which clause names them) — in the host plan's
//! [`Construct::undecided`](super::host::Construct::undecided). The
//! decision (OpenACC 3.3 2.6.2, `analysis::data_attrs`) needs what the
//! lowered kernels do with their pointers (their sections, `analysis`), so
//! it runs after lowering: `schedule::data` turns each [`UndecidedData`]
//! into the construct's maps and arguments.
//!
//! Owns: [`UndecidedData`], [`DataScope`], [`DataVar`], [`HostFacts`],
//! [`Shape`], [`Visible`]. May call: the `ir` types.

use super::{HostAddr, Lvalue, SrcLoc};

/// A variable a data clause gives a data attribute: one of the compute
/// construct, of an enclosing data construct, or of a function-scope
/// `declare`.
#[derive(Clone, Debug, PartialEq)]
pub struct Visible {
    pub var: String,
    /// The start of its mapped section.
    pub start: HostAddr,
    /// `deviceptr`: its value is a device address already.
    pub deviceptr: bool,
    /// `no_create`: a kernel sees its device copy if present, else itself.
    pub no_create: bool,
}

/// The class of a host variable's C type, as the implicit rules see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// An array of known size or a variable-length array: mapped whole.
    Array,
    /// A C pointer, with the size of its elements when known.
    Pointer { elem: Option<u64> },
    /// Anything else: a scalar, or an aggregate (which the kernel reaches
    /// by address: [`HostFacts::by_ref`]).
    Other,
}

/// What the front end records of the host variable behind one kernel
/// parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct HostFacts {
    /// Its name in the host scope.
    pub name: String,
    /// A hidden parameter: not the variable but `sizeof` of this object,
    /// the byte size of one of its variable-length arrays.
    pub size_of: Option<Lvalue>,
    /// The kernel reads and writes it in device memory (the parameter is
    /// its device address): a scalar in a data clause or a `kernels`
    /// region, or an aggregate.
    pub by_ref: bool,
    /// By reference only because every host scalar of a `kernels` region
    /// is (no data clause or reduction names it): `schedule::demote` makes
    /// it a value (`by_ref` false, its parameter demoted) where no kernel
    /// of the region writes it.
    pub demotable: bool,
    pub shape: Shape,
    /// A const-qualified object, which the host may keep in read-only
    /// memory.
    pub const_object: bool,
    /// What a data clause gives it, if one does.
    pub clause: Option<Visible>,
    /// A clause of the construct names a part of it (`s.a[0:n]`).
    pub member_in_clause: bool,
}

impl HostFacts {
    /// A plain C pointer the kernel receives by value (not an array, nor a
    /// scalar or struct passed by address): the variables whose implicit
    /// section is derived from the kernel's subscripts.
    pub fn plain_pointer(&self) -> bool {
        !self.by_ref && self.size_of.is_none() && matches!(self.shape, Shape::Pointer { .. })
    }
}

/// The host variable behind parameter `param` of kernel `kernel`, with
/// its facts.
#[derive(Clone, Debug, PartialEq)]
pub struct DataVar {
    pub kernel: usize,
    pub param: usize,
    pub facts: HostFacts,
}

/// Which data a construct's [`UndecidedData`] is.
#[derive(Clone, Debug, PartialEq)]
pub enum DataScope {
    /// A compute construct's own: its clauses' maps and the implicit maps
    /// of the variables of its kernel, the sections from that kernel.
    Kernel,
    /// The data region of a `kernels` construct of several kernels (the
    /// `kernels`, in order): the clauses' maps and the implicit map of each
    /// variable of any of them, the sections over all of them (OpenACC
    /// 3.3 2.5.3). What it maps implicitly is the data attribute of the
    /// variables of the kernels inside it ([`DataScope::InRegion`]).
    Region { kernels: Vec<usize> },
    /// A kernel inside such a region: only its arguments. A variable whose
    /// [`HostFacts::clause`] is `None` takes the region's implicit entry
    /// (the start of what the region maps of it); the others have the
    /// region's clause.
    InRegion,
}

/// The data attributes of a construct, recorded by the front end and not
/// decided yet: while a construct holds one, its `maps` are only its data
/// clauses' (in clause order) and a compute construct's `args` are empty.
#[derive(Clone, Debug, PartialEq)]
pub struct UndecidedData {
    pub scope: DataScope,
    /// The variables, in parameter order (a region: each name once, the
    /// first kernel's that has it; no hidden sizes).
    pub vars: Vec<DataVar>,
    /// `default(present)`: the implicit maps are `present` and no section
    /// is derived.
    pub default_present: bool,
    /// `default(none)`: a [`HostFacts::demotable`] variable no clause
    /// names that stays by reference (a kernel writes it) is an error.
    pub default_none: bool,
    /// The construct: where the implicit maps' expressions are located.
    /// The remarks on what cannot be derived follow the construct's
    /// [`Remark::Maps`](super::Remark::Maps) (none for
    /// [`DataScope::InRegion`]).
    pub loc: SrcLoc,
}
