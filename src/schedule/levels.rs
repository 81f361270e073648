//! Loop levels of the `parallel` construct (and of routines, which nest in
//! one): which levels a loop is partitioned over, from what its directive
//! asks ([`LoopDirective`]), where it is nested ([`Outer`]: the levels the
//! loops around it use) and the shape of the nest below it; and the nesting
//! errors (a level inside a loop of the same or an inner level).
//!
//! gang → grid x (`gang(dim:n)`: grid dimension n), worker → block y,
//! vector → block x. A loop directive with no level (and no `seq`) takes,
//! when loops with directives are nested in it, the outermost free level
//! (gang, then worker), else every free level.
//!
//! The decision reads facts only (the directive, the nest's shape): the
//! plan over the IR's [`crate::ir::Loop::directive`] (`plan.rs`) gathers
//! them.
//!
//! Owns: [`Outer`], [`Shape`], [`Decided`], [`NestingError`],
//! [`parallel_loop`]. The `kernels` construct's mappings are in
//! `kernels.rs`. May call: `ir`.

use crate::ir::{LoopDirective, Parallelism};

/// The levels the loops around a loop use (or, in a routine, the levels
/// above the routine's own, which its loops may not use).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outer {
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
    /// The lowest grid dimension enclosing gang loops use (a gang loop
    /// nested in them must use a lower one: `gang(dim:)`).
    pub gang_dim: Option<u8>,
}

/// The shape of the nest below a loop: what its automatic levels depend on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Loops with directives are nested in it.
    pub nested: bool,
    /// One of those has loops with directives nested in it too.
    pub nested_twice: bool,
}

/// What was decided for one loop of a `parallel` construct.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    pub par: Parallelism,
    /// Why it runs sequentially (its remark), when it does.
    pub seq_why: Option<&'static str>,
    /// The levels the loops inside it see used.
    pub inner: Outer,
}

/// A loop of a level nested inside a loop of the same or an inner level
/// (or in a routine of a lower level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NestingError {
    /// `gang`, `worker` or `vector`.
    pub level: &'static str,
}

impl std::fmt::Display for NestingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a {} loop may not be nested inside a loop of the same or an inner level (or appear in a routine of a lower level)", self.level)
    }
}

/// The levels of a loop of a `parallel` construct whose directive asks
/// `d`, inside loops using `outer`, with the nest `shape` below it.
pub fn parallel_loop(
    d: &LoopDirective,
    outer: Outer,
    shape: Shape,
) -> Result<Decided, NestingError> {
    let (mut gang, mut worker, mut vector) = (d.gang, d.worker, d.vector);
    let mut seq_why = None;
    if d.seq {
        seq_why = Some("loop run sequentially: seq clause");
    } else if !d.explicit() {
        // Auto: the free levels, outermost first when loops nest in it.
        let nested = shape.nested;
        (gang, worker, vector) = match (outer.gang, outer.worker, outer.vector) {
            (_, _, true) => (false, false, false),
            (false, false, false) if nested => (true, false, false),
            (false, false, false) => (true, false, true),
            (true, false, false) if nested && shape.nested_twice => (false, true, false),
            (true, false, false) if nested => (false, false, true),
            _ => (false, !outer.worker && !nested, true),
        };
        if !(gang || worker || vector) {
            seq_why = Some("loop run sequentially: every level is used by enclosing loops");
        }
    }
    let dim = d.gang_dim.unwrap_or(0);
    let gang_nests = outer.gang_dim.is_some_and(|o| dim < o) && !outer.worker && !outer.vector;
    if gang && (outer.gang || outer.worker || outer.vector) && !gang_nests {
        return Err(NestingError { level: "gang" });
    }
    if worker && (outer.worker || outer.vector) {
        return Err(NestingError { level: "worker" });
    }
    if vector && outer.vector {
        return Err(NestingError { level: "vector" });
    }
    let par = if gang || worker || vector {
        Parallelism::Par {
            gang: gang.then_some(dim),
            worker,
            vector: vector.then_some(0),
        }
    } else {
        Parallelism::Seq
    };
    // Below a gang(dim:d) loop (d > 0) lower dimensions stay free.
    let inner = Outer {
        gang: outer.gang || (gang && dim == 0),
        worker: outer.worker || worker,
        vector: outer.vector || vector,
        gang_dim: if gang { Some(dim) } else { outer.gang_dim },
    };
    Ok(Decided {
        par,
        seq_why,
        inner,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(f: impl FnOnce(&mut LoopDirective)) -> LoopDirective {
        let mut d = LoopDirective::default();
        f(&mut d);
        d
    }

    const LEAF: Shape = Shape {
        nested: false,
        nested_twice: false,
    };

    #[test]
    fn auto_levels_follow_the_nest() {
        let auto = LoopDirective::default();
        let top = Outer::default();
        // Alone: gang and vector; over one level of loops: gang.
        let d = parallel_loop(&auto, top, LEAF).unwrap();
        assert_eq!(d.par, Parallelism::levels(true, false, true));
        let two = Shape {
            nested: true,
            nested_twice: true,
        };
        let d = parallel_loop(&auto, top, two).unwrap();
        assert_eq!(d.par, Parallelism::levels(true, false, false));
        // Below a gang loop, over a nest of two: worker; then vector.
        let w = parallel_loop(&auto, d.inner, two).unwrap();
        assert_eq!(w.par, Parallelism::levels(false, true, false));
        let v = parallel_loop(&auto, w.inner, LEAF).unwrap();
        assert_eq!(v.par, Parallelism::levels(false, false, true));
        // Below every level: sequential, with its reason.
        let s = parallel_loop(&auto, v.inner, LEAF).unwrap();
        assert_eq!(s.par, Parallelism::Seq);
        assert!(s.seq_why.unwrap().contains("every level"));
    }

    #[test]
    fn levels_nest_outer_to_inner() {
        let vector = dir(|d| d.vector = true);
        let gang = dir(|d| d.gang = true);
        let inside_vector = Outer {
            vector: true,
            ..Outer::default()
        };
        assert_eq!(
            parallel_loop(&gang, inside_vector, LEAF),
            Err(NestingError { level: "gang" })
        );
        assert_eq!(
            parallel_loop(&vector, inside_vector, LEAF),
            Err(NestingError { level: "vector" })
        );
        // gang(dim:1) inside gang(dim:2) is allowed.
        let g2 = parallel_loop(
            &dir(|d| (d.gang, d.gang_dim) = (true, Some(1))),
            Outer::default(),
            LEAF,
        )
        .unwrap();
        let g1 = parallel_loop(
            &dir(|d| (d.gang, d.gang_dim) = (true, Some(0))),
            g2.inner,
            LEAF,
        )
        .unwrap();
        assert_eq!(
            g1.par,
            Parallelism::Par {
                gang: Some(0),
                worker: false,
                vector: None
            }
        );
        assert!(parallel_loop(&gang, g1.inner, LEAF).is_err());
        // seq asks for nothing.
        let s = parallel_loop(&dir(|d| d.seq = true), inside_vector, LEAF).unwrap();
        assert_eq!(
            (s.par, s.seq_why),
            (Parallelism::Seq, Some("loop run sequentially: seq clause"))
        );
    }
}
