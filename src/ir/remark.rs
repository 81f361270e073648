//! `-Minfo` remarks whose text names a kernel's launch sizes, which only
//! `schedule` decides: the front end records them in source order as
//! [`Remark`]s, and [`render`] writes their text once the module is
//! scheduled (`vector(block.x)` becomes `vector(block.x=128)`).
//!
//! Owns: [`Remark`], [`Notes`], [`render`], [`map_lines`]. May call: nothing outside
//! `ir`.

use super::host::{HostMap, MapKind};
use super::module::{GridSize, Module};
use super::stmt::Parallelism;
use super::SrcLoc;

/// The launch axis names, by dimension.
const DIM: [&str; 3] = ["x", "y", "z"];

/// One remark.
#[derive(Clone, Debug, PartialEq)]
pub enum Remark {
    /// Text as is.
    Text(String),
    /// A partitioned loop: `loop parallelized across gangs(grid.x) and
    /// vector(block.x)` followed by `rest` (collapse, tile, reductions,
    /// why). The thread counts of kernel `kernel`'s launch are named where
    /// it has one and they are known at compile time or by a clause
    /// (`kernel`: `None` in a device function).
    Levels {
        kernel: Option<usize>,
        par: Parallelism,
        rest: String,
    },
    /// What `schedule` changed in kernel `kernel`'s launch sizes (beyond
    /// the device's limits, not positive, or ignored): one line each,
    /// none when nothing.
    Launch { kernel: usize },
    /// The data kernel `kernel`'s construct maps ([`map_lines`] of the
    /// maps of [`HostPlan::data_of`]), as the host plan has them once
    /// scheduled: `generating copyin(a[0:n])` for each clause's,
    /// `generating implicit copy(s)` for each implicit one.
    ///
    /// [`HostPlan::data_of`]: super::host::HostPlan::data_of
    Maps { kernel: usize },
    /// A variable of a `cache` directive (at `at`): what `schedule` did
    /// with it ([`Notes::cache`]), or `otherwise` where it said nothing
    /// (the loop became sequential code before it).
    Cache { at: SrcLoc, otherwise: String },
}

/// What `schedule` says for the remarks: by kernel, what it changed in
/// the launch sizes the clauses give (the text of [`Remark::Launch`]);
/// by position, what it did with each `cache` variable it saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notes {
    pub launch: Vec<Vec<String>>,
    pub cache: Vec<(SrcLoc, String)>,
}

impl From<String> for Remark {
    fn from(s: String) -> Remark {
        Remark::Text(s)
    }
}

impl From<&str> for Remark {
    fn from(s: &str) -> Remark {
        Remark::Text(s.to_string())
    }
}

impl Remark {
    /// The remark on scalar `var`, which a loop's iterations each get a
    /// copy of (automatic privatisation).
    pub fn private(var: &str) -> Remark {
        Remark::Text(format!(
            "'{var}' is private to the loop: it is assigned before it is read in every iteration"
        ))
    }

    /// The warning on scalar `var`, which a partitioned loop assigns and
    /// leaves shared by its threads.
    pub fn race(var: &str) -> Remark {
        Remark::Text(format!("warning: '{var}' is assigned in the loop but shared by its iterations (it is read before it is assigned, and no clause makes it private or a reduction): the threads race on it"))
    }

    /// The remark of a loop with parallelism `par`: its levels, or
    /// `loop run sequentially`.
    pub fn levels(par: Parallelism) -> Remark {
        match par {
            Parallelism::Seq => Remark::Text("loop run sequentially".into()),
            par => Remark::Levels {
                kernel: None,
                par,
                rest: String::new(),
            },
        }
    }

    /// The remark of a loop with parallelism `par` that collapses
    /// `collapse` loops (`force`: with `collapse(force:n)`): its levels and,
    /// when partitioned, its collapse.
    pub fn of_loop(par: Parallelism, collapse: usize, force: bool) -> Remark {
        let mut r = Remark::levels(par);
        if par != Parallelism::Seq && collapse > 1 {
            let force = if force { "force:" } else { "" };
            r.push_str(&format!(", collapse({force}{collapse})"));
        }
        r
    }

    /// Appends `s` to the remark's text.
    pub fn push_str(&mut self, s: &str) {
        match self {
            Remark::Text(t) | Remark::Levels { rest: t, .. } => t.push_str(s),
            Remark::Launch { .. } | Remark::Maps { .. } | Remark::Cache { .. } => {}
        }
    }

    /// The remark as a remark about kernel `kernel`'s loops.
    pub fn of_kernel(self, kernel: usize) -> Remark {
        match self {
            Remark::Levels { par, rest, .. } => Remark::Levels {
                kernel: Some(kernel),
                par,
                rest,
            },
            r => r,
        }
    }

    /// The text, with no launch sizes named (a `Launch` remark has none).
    pub fn unsized_text(&self) -> String {
        match self {
            Remark::Text(t) => t.clone(),
            Remark::Levels { par, rest, .. } => levels_text(*par, &[None, None, None], rest),
            Remark::Launch { .. } | Remark::Maps { .. } => String::new(),
            Remark::Cache { otherwise, .. } => otherwise.clone(),
        }
    }
}

/// `loop parallelized across …` for `par`, naming the block sizes
/// `block` gives (by dimension), then `rest`.
fn levels_text(par: Parallelism, block: &[Option<String>; 3], rest: &str) -> String {
    let Parallelism::Par {
        gang,
        worker,
        vector,
    } = par
    else {
        return format!("loop run sequentially{rest}");
    };
    let sized = |what: &str, d: usize| match &block[d] {
        Some(n) => format!("{what}(block.{}={n})", DIM[d]),
        None => format!("{what}(block.{})", DIM[d]),
    };
    let mut parts = vec![];
    if let Some(d) = gang {
        parts.push(format!("gangs(grid.{})", DIM[usize::from(d).min(2)]));
    }
    if worker {
        parts.push(sized("workers", 1));
    }
    if let Some(d) = vector {
        parts.push(sized("vector", usize::from(d).min(2)));
    }
    format!("loop parallelized across {}{rest}", parts.join(" and "))
}

/// How a remark names a launch size: a constant, or a clause's text
/// (without the parentheses around a plain name); `None` for a size the
/// runtime chooses.
fn size_name(g: &GridSize) -> Option<String> {
    match g {
        GridSize::Const(n) => Some(n.to_string()),
        GridSize::Clause { expr, .. } => Some(
            expr.text
                .strip_prefix('(')
                .and_then(|s| s.strip_suffix(')'))
                .filter(|s| s.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .unwrap_or(&expr.text)
                .to_string(),
        ),
        GridSize::FromTrip { .. } => None,
    }
}

/// The remarks on a construct's maps: `generating KIND(name)` for each
/// map a data clause makes (but its attaches and rows, which follow from
/// its items), then `generating implicit KIND(name)` for each implicit
/// one, in order.
pub fn map_lines(maps: &[HostMap]) -> Vec<String> {
    let explicit = maps
        .iter()
        .filter(|m| !m.implicit && !matches!(m.kind, MapKind::Attach | MapKind::Rows))
        .map(|m| format!("generating {}({})", m.kind.clause(), m.name));
    let implicit = maps
        .iter()
        .filter(|m| m.implicit)
        .map(|m| format!("generating implicit {}({})", m.kind.clause(), m.name));
    explicit.chain(implicit).collect()
}

/// The text of `remarks` about module `m` (scheduled, or not: then no size
/// is named), in their order; `notes`: what `schedule` said about each
/// kernel's launch, by kernel (empty where it did not run).
pub fn render(remarks: &[(SrcLoc, Remark)], m: &Module, notes: &Notes) -> Vec<(SrcLoc, String)> {
    let mut out = vec![];
    for (loc, r) in remarks {
        match r {
            Remark::Text(t) => out.push((loc.clone(), t.clone())),
            Remark::Levels { kernel, par, rest } => {
                let launch = kernel
                    .and_then(|k| m.kernels.get(k))
                    .and_then(|k| k.launch.as_ref());
                let block = match launch {
                    Some(l) => std::array::from_fn(|d| size_name(&l.block[d])),
                    None => [None, None, None],
                };
                out.push((loc.clone(), levels_text(*par, &block, rest)));
            }
            Remark::Launch { kernel } => {
                for n in notes.launch.get(*kernel).into_iter().flatten() {
                    out.push((loc.clone(), n.clone()));
                }
            }
            Remark::Cache { at, otherwise } => {
                let said = notes.cache.iter().find(|(l, _)| l == at);
                let text = said.map_or(otherwise, |(_, t)| t);
                out.push((loc.clone(), text.clone()));
            }
            Remark::Maps { kernel } => {
                let maps = m.host.data_of(*kernel).map_or(&[][..], |c| &c.maps[..]);
                for t in map_lines(maps) {
                    out.push((loc.clone(), t));
                }
            }
        }
    }
    out
}
