//! Launch geometry: the grid and block of each kernel ([`Launch`]), from
//! the IR — its planned loops' parallelism and sizes ([`LoopSizes`]: trip
//! counts, size clauses), its construct's size clauses
//! ([`crate::ir::SizeClauses`]), the levels of the routines it calls —
//! and the [`Gpu`]'s limits; and what it changed in the sizes the clauses
//! give, as remarks. How the host then evaluates the launch is
//! `launch.rs`.
//!
//! Defaults: 128 vector lanes (32×8 or 32×4×2 when vector loops use two or
//! three block dimensions), fewer for short constant vector loops; workers
//! fill blocks of up to 1024 threads, no more than a short worker loop has
//! iterations; gangs enough for the outermost gang loop (along x at most a
//! wave of resident blocks, chosen by the runtime). Sizes the clauses
//! give: where not positive, the default; constants beyond the target's
//! limits (1024 threads a block, 65535 gangs along y and z) are reduced
//! here with a remark, the others at run time (`__ptxrt_size_or`,
//! `__ptxrt_fit_block_to`: the device's and the loaded kernel's, whose
//! registers may allow fewer threads), so no launch of a size the driver refuses is ever
//! made.
//!
//! Owns: [`launch`]. May call: `ir`.

use crate::ir::{
    broadcasts_in_rows, walk_stmts, ComputeKind, DeviceFunction, Gpu, GridSize, HostType, Kernel,
    Launch, LoopSizes, Parallelism, RoutineLevel, SrcLoc, Stmt, UserExpr,
};

/// What the geometry changed in the sizes the clauses give, as a remark's
/// text; `block`: about the block's threads (a target whose blocks are one
/// thread, the host's cores, drops these).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub block: bool,
}

impl Note {
    fn grid(text: impl Into<String>) -> Note {
        Note {
            text: text.into(),
            block: false,
        }
    }

    fn block(text: impl Into<String>) -> Note {
        Note {
            text: text.into(),
            block: true,
        }
    }
}

/// The launch axis names, by dimension.
const DIM: [&str; 3] = ["x", "y", "z"];

/// A planned loop of the kernel, as the geometry reads it.
struct Planned {
    par: Parallelism,
    sizes: LoopSizes,
    /// `vector(n)`, or for a tiled vector loop a tile's elements.
    vector_len: Option<UserExpr>,
}

/// The levels the routines a kernel calls use.
#[derive(Clone, Copy, Default)]
struct Used {
    gang: bool,
    worker: bool,
    vector: bool,
}

/// `n` lanes rounded up to a power of two when at most a warp, else to a
/// multiple of the warp (at most a block's threads); 0 stays 0. Mirrors
/// `__ptxrt_warp_friendly`.
fn warp_friendly(n: u32, gpu: &Gpu) -> u32 {
    match n {
        0 => 0,
        _ if n <= gpu.warp => n.next_power_of_two(),
        _ => n
            .div_ceil(gpu.warp)
            .saturating_mul(gpu.warp)
            .min(gpu.max_threads_per_block),
    }
}

/// The size a clause's text gives: its value when it is an integer
/// literal (`None` when it is not one).
fn literal(e: &str) -> Option<i64> {
    let digits = e.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace());
    let digits = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    digits.parse::<i64>().ok()
}

/// What a launch dimension's clause says (a host expression, located at
/// the clause), with the size used where it is not positive.
fn clause(expr: &UserExpr, default: GridSize) -> GridSize {
    GridSize::Clause {
        expr: expr.clone(),
        default: Box::new(default),
        warp: false,
    }
}

/// What kernel `k` reads for its geometry: its planned loops (in source
/// order), the levels the routines it calls use (`functions`: the
/// module's), and whether it reduces across lanes or broadcasts a value
/// to a worker's lanes (then block x must suit warp shuffles, and the row
/// barrier a broadcast meets at, rows of whole warps or of a power of two
/// lanes).
fn facts(k: &Kernel, functions: &[DeviceFunction], gpu: &Gpu) -> (Vec<Planned>, Used, bool) {
    let mut planned = vec![];
    let mut used = Used::default();
    let mut reduces = false;
    walk_stmts(&k.body.body, &mut |s| match s {
        Stmt::Loop(l) => {
            reduces |= !l.reductions.is_empty();
            let Some(sizes) = &l.sizes else {
                return;
            };
            // A tiled loop's vector lanes take a tile's elements: a block
            // is a tile.
            let tiled = (!l.tile.is_empty()
                && matches!(
                    l.par,
                    Parallelism::Par {
                        vector: Some(_),
                        ..
                    }
                ))
            .then(|| UserExpr {
                text: super::tile::sizes(&l.tile)
                    .iter()
                    .product::<u32>()
                    .min(gpu.max_threads_per_block)
                    .to_string(),
                loc: l.loc.clone(),
                ty: HostType::LongLong,
            });
            planned.push(Planned {
                par: l.par,
                sizes: (**sizes).clone(),
                vector_len: sizes.vector.clone().or(tiled),
            });
        }
        Stmt::Call { func, .. } => {
            let level = functions.get(*func).map_or(RoutineLevel::Seq, |f| f.level);
            used.gang |= level >= RoutineLevel::Gang;
            used.worker |= level >= RoutineLevel::Worker;
            used.vector |= level >= RoutineLevel::Vector;
        }
        _ => {}
    });
    reduces |= broadcasts_in_rows(&k.body.body);
    (planned, used, reduces)
}

/// The launch geometry of kernel `k` (`functions`: the module's device
/// functions, for the levels of the routines it calls; `gpu`: the
/// target's limits), and what was changed in the sizes its clauses give
/// (not positive, beyond the device's limits, or ignored), as remarks.
/// Trip counts are evaluated where the construct is (`k.loc`).
pub fn launch(k: &Kernel, functions: &[DeviceFunction], gpu: &Gpu) -> (Launch, Vec<Note>) {
    let kind = k.kind;
    if kind == ComputeKind::Serial {
        return (Launch::single(), vec![]);
    }
    let sizes = &k.sizes;
    let (loops, used, reduces) = facts(k, functions, gpu);
    let one = || GridSize::Const(1);
    let mut grid = [one(), one(), one()];
    let mut block = [one(), one(), one()];
    let mut gdims = [false; 3];
    let mut vdims = [false; 3];
    let mut worker = used.worker;
    for d in &loops {
        if let Parallelism::Par {
            gang,
            worker: w,
            vector,
        } = d.par
        {
            if let Some(g) = gang {
                gdims[usize::from(g).min(2)] = true;
            }
            if let Some(v) = vector {
                vdims[usize::from(v).min(2)] = true;
            }
            worker |= w;
        }
    }
    gdims[0] |= used.gang;
    vdims[0] |= used.vector;
    let nvec = vdims.iter().filter(|v| **v).count();
    // Block: explicit sizes, else by how many dimensions vectors use.
    let defaults: [u32; 3] = match nvec {
        0 | 1 => [128, 1, 1],
        2 => [32, 8, 1],
        _ => [32, 4, 2],
    };
    for k in 0..3 {
        if vdims[k] {
            let explicit = loops.iter().find_map(|d| match d.par {
                Parallelism::Par {
                    vector: Some(v), ..
                } if usize::from(v) == k => d.vector_len.clone(),
                _ => None,
            });
            let default = match k {
                0 if kind == ComputeKind::Parallel && !used.vector => {
                    // Vector loops that are all short: no more lanes
                    // than iterations (whole warps).
                    let trips: Option<Vec<u64>> = loops
                        .iter()
                        .filter(|d| {
                            matches!(
                                d.par,
                                Parallelism::Par {
                                    vector: Some(0),
                                    ..
                                }
                            )
                        })
                        .map(|d| d.sizes.const_trip)
                        .collect();
                    match trips.and_then(|t| t.into_iter().max()) {
                        Some(t) if t < u64::from(defaults[0]) => {
                            GridSize::Const((t.max(32) as u32).next_power_of_two())
                        }
                        _ => GridSize::Const(defaults[0]),
                    }
                }
                _ => GridSize::Const(defaults[k]),
            };
            block[k] = match (k, &sizes.vector_length, explicit) {
                (_, _, Some(e)) => clause(&e, default),
                (0, Some(e), None) => clause(e, default),
                _ => default,
            };
        }
    }
    if worker {
        let explicit = loops.iter().find_map(|d| d.sizes.worker.clone());
        // Workers fill a block of up to 1024 threads (at least 4 of them
        // where that fits): worker loops are how a few gangs use a whole
        // SM. Rows wider than a warp synchronise on named barriers, of
        // which a block has 15 for rows. No more workers than a short
        // worker loop has iterations.
        let default = match &block[0] {
            GridSize::Const(x) if *x >= 1 => {
                let most = (gpu.max_threads_per_block / x).max(1);
                let cap = if *x > gpu.warp {
                    gpu.named_barriers - 1
                } else {
                    32
                };
                let trips: Option<Vec<u64>> = loops
                    .iter()
                    .filter(|d| matches!(d.par, Parallelism::Par { worker: true, .. }))
                    .map(|d| d.sizes.const_trip)
                    .collect();
                let short = match trips.and_then(|t| t.into_iter().max()) {
                    Some(t) if !used.worker && t < 32 => (t.max(1) as u32).next_power_of_two(),
                    _ => 32,
                };
                GridSize::Const(most.min(cap).min(short).max(4.min(most).min(short)))
            }
            _ => GridSize::Const(4),
        };
        block[1] = match (&sizes.num_workers, explicit) {
            (Some(e), _) => clause(e, default),
            (None, Some(e)) => clause(&e, default),
            (None, None) => default,
        };
    }
    // Grid: num_gangs, gang(num:), else from the trip count of the
    // outermost loop on each dimension.
    for d in 0..3 {
        let on_d = loops.iter().find(
            |l| matches!(l.par, Parallelism::Par { gang: Some(g), .. } if usize::from(g) == d),
        );
        let default = match on_d {
            _ if !gdims[d] => one(),
            Some(l) => {
                let mut threads: Vec<u8> = vec![];
                if let Parallelism::Par { worker, vector, .. } = l.par {
                    threads.extend(vector);
                    if worker {
                        threads.push(1);
                    }
                }
                GridSize::FromTrip {
                    trip: l.sizes.trip.as_ref().map(|t| at(t, &k.loc)),
                    threads,
                }
            }
            None => GridSize::FromTrip {
                trip: None,
                threads: vec![],
            },
        };
        let gang_num = on_d.and_then(|l| l.sizes.gang.as_ref());
        grid[d] = match (sizes.num_gangs.get(d), gang_num) {
            // A kernels region's code outside gang loops runs once, not
            // once per gang (num_gangs applies to its gang loops).
            (Some(_), _) if kind == ComputeKind::Kernels && !gdims[d] => one(),
            (Some(e), _) => clause(e, default),
            (None, Some(e)) if gdims[d] => clause(e, default),
            _ => default,
        };
    }
    let mut notes = vec![];
    // Without a loop across workers, every worker but the first would
    // only repeat worker-single code (racing with its stores): a gang is
    // one worker, as nvc does.
    if !worker && !vdims[1] && sizes.num_workers.is_some() {
        notes.push(Note::grid(
            "num_workers ignored: no loop is partitioned across workers",
        ));
    }
    if kind == ComputeKind::Kernels && !gdims.iter().any(|g| *g) && !sizes.num_gangs.is_empty() {
        notes.push(Note::grid(
            "num_gangs ignored: no loop of the kernels region is partitioned across gangs",
        ));
    }
    // Sizes written as integer constants are constants (so the kernel's
    // code can fold them); a constant that is not positive means the
    // default, as a value computed at run time would.
    for (what, dims) in [("gangs", &mut grid), ("threads", &mut block)] {
        for (d, g) in dims.iter_mut().enumerate() {
            let GridSize::Clause { expr, default, .. } = g else {
                continue;
            };
            match literal(&expr.text) {
                Some(n) if n > 0 => *g = GridSize::Const(u32::try_from(n).unwrap_or(u32::MAX)),
                Some(n) => {
                    notes.push(Note {
                        text: format!(
                            "{what} along {} given as {n}, which is not positive: using the default",
                            DIM[d]
                        ),
                        block: what == "threads",
                    });
                    *g = (**default).clone();
                }
                None => {}
            }
        }
    }
    // Reductions combine vector lanes with warp shuffles: a row of lanes
    // is a power of two up to 32, or whole warps (as nvc rounds
    // vector_length; loops stride, so more lanes are always correct).
    if reduces {
        match &mut block[0] {
            GridSize::Const(n) => *n = warp_friendly(*n, gpu),
            GridSize::Clause { warp, .. } => *warp = true,
            GridSize::FromTrip { .. } => {}
        }
    }
    fit_constants(&mut grid, &mut block, &mut notes, gpu);
    (Launch { grid, block }, notes)
}

/// Host expression `e` evaluated at `loc` (where the construct is).
fn at(e: &UserExpr, loc: &SrcLoc) -> UserExpr {
    UserExpr {
        loc: loc.clone(),
        ..e.clone()
    }
}
/// Brings the constant sizes within the device's limits (the others are
/// fitted at run time, `__ptxrt_fit_block_to`), saying what changed: gangs
/// beyond a grid dimension's limit (the loops stride, so fewer is
/// correct), and blocks of more than 1024 threads — fewer workers first,
/// then fewer threads along z, then fewer vector lanes (kept whole warps).
fn fit_constants(
    grid: &mut [GridSize; 3],
    block: &mut [GridSize; 3],
    notes: &mut Vec<Note>,
    gpu: &Gpu,
) {
    // Named barriers a block has for rows (one of them is the block's).
    let max_rows = gpu.named_barriers - 1;
    for k in 0..3 {
        if let GridSize::Const(n) = &mut grid[k] {
            if *n > gpu.max_grid[k] {
                notes.push(Note::grid(format!(
                    "{n} gangs along {} is more than the device allows: using {}",
                    DIM[k], gpu.max_grid[k]
                )));
                *n = gpu.max_grid[k];
            }
        }
    }
    let value = |g: &GridSize| match g {
        GridSize::Const(n) => *n,
        _ => 1,
    };
    let before: Vec<u32> = block.iter().map(value).collect();
    for (g, most) in block.iter_mut().zip(gpu.max_block) {
        if let GridSize::Const(n) = g {
            *n = (*n).min(most);
        }
    }
    for k in [1, 2, 0] {
        let others: u32 = (0..3)
            .filter(|&j| j != k)
            .map(|j| value(&block[j]))
            .product();
        if let GridSize::Const(n) = &mut block[k] {
            let most = (gpu.max_threads_per_block / others.max(1)).max(1);
            if *n > most {
                *n = if k == 0 {
                    lanes_at_most(most, gpu.warp)
                } else {
                    most
                };
            }
        }
    }
    let after: Vec<u32> = block.iter().map(value).collect();
    // Rows wider than a warp synchronise on named barriers, of which a
    // block has 15 for rows (ptxrt.h's __ptxrt_fit_block does the same
    // at run time).
    if let (GridSize::Const(x), GridSize::Const(w)) = (&block[0], &block[1]) {
        let z = value(&block[2]).max(1);
        if *x > gpu.warp && w * z > max_rows {
            let fewer = (max_rows / z).max(1);
            notes.push(Note::block(format!(
                "{w} workers of {x} vector lanes: rows wider than a warp synchronise on named barriers, of which a block has {max_rows}: using {fewer} workers"
            )));
            block[1] = GridSize::Const(fewer);
        }
    }
    if before != after {
        let dims = |v: &[u32]| format!("{}x{}x{}", v[0], v[1], v[2]);
        notes.push(Note::block(format!(
            "a block of {} threads is more than the device's {}: using {} (vector lanes x workers x z)",
            dims(&before),
            gpu.max_threads_per_block,
            dims(&after)
        )));
    }
}

/// The most vector lanes, at most `n`, that keep rows whole warps of
/// `warp` lanes (or a power of two below a warp).
fn lanes_at_most(n: u32, warp: u32) -> u32 {
    if n >= warp {
        n / warp * warp
    } else {
        1 << (31 - n.max(1).leading_zeros())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{read_module, Target};

    /// The launch and remarks of the one kernel of a module whose kernel
    /// header line is `header` (construct, size clauses) around a loop
    /// `loop_head` over `%0 i` up to `%1 n`.
    fn geometry(header: &str, loop_head: &str) -> (Launch, Vec<String>) {
        let text = format!(
            "module \"t.c\"\n\nkernel @k {header}\n  param %1 n: i32 value\n  local %0 i: i32\n{{\n    loop {loop_head} at \"t.c\":2:1 {{\n    }}\n  }}\n"
        );
        let m = read_module(&text).expect("reads");
        let (l, notes) = launch(
            &m.kernels[0],
            &m.functions,
            Target::gpu(90).gpu_limits().unwrap(),
        );
        (l, notes.into_iter().map(|n| n.text).collect())
    }

    #[test]
    fn lanes_round_to_warps() {
        let gpu = Target::gpu(90).gpu_limits().unwrap().clone();
        assert_eq!(warp_friendly(0, &gpu), 0);
        assert_eq!(warp_friendly(5, &gpu), 8);
        assert_eq!(warp_friendly(33, &gpu), 64);
        assert_eq!(warp_friendly(5000, &gpu), 1024);
        assert_eq!(lanes_at_most(1000, 32), 992);
        assert_eq!(lanes_at_most(20, 32), 16);
        assert_eq!(literal("(128)"), Some(128));
        assert_eq!(literal("(n)"), None);
    }

    #[test]
    fn short_constant_vector_loop_takes_a_warp() {
        let (l, notes) = geometry(
            "parallel \"parallel loop\" at t.c:1:1",
            "vector.x %0 i = 0; < %1 n; += 1 sizes(const: 20)",
        );
        assert_eq!(l.block[0], GridSize::Const(32));
        assert_eq!(
            l.grid,
            [GridSize::Const(1), GridSize::Const(1), GridSize::Const(1)]
        );
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn constant_clauses_beyond_the_limits_are_reduced() {
        let (l, notes) = geometry(
            "parallel \"parallel loop\" at t.c:1:1\n  sizes num_gangs(i64 ((0)) at \"t.c\":1:30) vector_length(i64 ((2048)) at \"t.c\":1:50)",
            "gang.x vector.x %0 i = 0; < %1 n; += 1 sizes(trip: u64 (n) at \"t.c\":2:1)",
        );
        assert_eq!(l.block[0], GridSize::Const(1024));
        // Not positive: the default, enough gangs for the loop, whose
        // trip count is evaluated where the construct is.
        match &l.grid[0] {
            GridSize::FromTrip {
                trip: Some(t),
                threads,
            } => {
                assert_eq!((t.text.as_str(), t.loc.line), ("n", 1));
                assert_eq!(threads, &[0]);
            }
            g => panic!("{g:?}"),
        }
        assert_eq!(
            notes,
            [
                "gangs along x given as 0, which is not positive: using the default",
                "a block of 2048x1x1 threads is more than the device's 1024: using 1024x1x1 (vector lanes x workers x z)"
            ]
        );
    }

    /// The kernel's kind decides, not its construct's text: num_gangs of
    /// a kernels region with no gang loop is ignored, of a parallel one
    /// kept, whatever the construct is called.
    #[test]
    fn the_kind_decides_not_the_text() {
        let sizes = "\n  sizes num_gangs(i64 ((4)) at \"t.c\":1:30)";
        let vector = "vector.x %0 i = 0; < %1 n; += 1 sizes(trip: u64 (n) at \"t.c\":2:1)";
        let (k, notes) = geometry(&format!("kernels \"parallel\" at t.c:1:1{sizes}"), vector);
        assert_eq!(k.grid[0], GridSize::Const(1));
        assert_eq!(
            notes,
            ["num_gangs ignored: no loop of the kernels region is partitioned across gangs"]
        );
        let (p, notes) = geometry(&format!("parallel \"kernels\" at t.c:1:1{sizes}"), vector);
        assert_eq!(p.grid[0], GridSize::Const(4));
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn serial_is_one_thread() {
        // (Even with a loop that asks for lanes.)
        let (l, notes) = geometry(
            "serial \"serial loop\" at t.c:1:1",
            "vector.x %0 i = 0; < %1 n; += 1 sizes()",
        );
        assert_eq!(l, Launch::single());
        assert!(notes.is_empty());
    }
}
