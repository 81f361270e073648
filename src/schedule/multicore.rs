//! The launch geometry of a kernel for the host's cores
//! ([`crate::ir::Target::Host`], `-acc=multicore`): the GPU's geometry
//! (`geometry.rs`) decides how many gangs the loops and clauses ask for;
//! here every block becomes one thread, so a gang runs its worker and
//! vector loops sequentially, and a gang's share of a gang loop is one
//! iteration at a time (`FromTrip` with no thread dimensions). The grid
//! along x then defaults to what the runtime chooses for the device
//! (`__ptxrt_kernel_gangs`: on the multicore device, one gang per host
//! thread at most), as the GPU's is a wave of resident blocks.
//!
//! A gang loop's iterations are handed out as on `gang(static:*)`: one
//! chunk of consecutive iterations per gang ([`chunk_gang_loops`]), so a
//! host thread walks memory in order instead of every G-th element (which
//! on a GPU coalesces, and on cores shares every cache line among them).
//!
//! Owns: [`launch`], [`chunk_gang_loops`]. May call: `ir`, `geometry`.

use super::geometry;
use crate::ir::{DeviceFunction, Gpu, GridSize, HostCpu, Kernel, Launch, Parallelism, Stmt};

/// What the host does with the kernel's loops, as a remark.
const GANGS: &str = "gangs run on the host's threads, each on consecutive iterations of a gang loop; worker and vector loops run sequentially in each gang";
const ONE: &str = "runs on one host thread";

/// The launch of kernel `k` on the host (`functions`: the module's device
/// functions), and the remarks on it.
pub fn launch(k: &Kernel, functions: &[DeviceFunction], host: &HostCpu) -> (Launch, Vec<String>) {
    let gpu = Gpu {
        max_grid: host.max_grid,
        ..Gpu::new(0)
    };
    let (l, notes) = geometry::launch(k, functions, &gpu);
    // The host's blocks are one thread whatever the clauses say: the notes
    // about blocks do not apply.
    let mut notes: Vec<String> = notes
        .into_iter()
        .filter(|n| !n.block)
        .map(|n| n.text)
        .collect();
    let grid = l.grid.map(|g| one_lane(&g));
    let gangs = grid.iter().any(|g| *g != GridSize::Const(1));
    notes.push(if gangs { GANGS } else { ONE }.to_string());
    let block = [GridSize::Const(1), GridSize::Const(1), GridSize::Const(1)];
    (Launch { grid, block }, notes)
}

/// Grid size `g` for blocks of one thread: a gang takes one iteration of
/// its loop at a time, and no lanes need rounding for warp shuffles.
fn one_lane(g: &GridSize) -> GridSize {
    match g {
        GridSize::Const(n) => GridSize::Const(*n),
        GridSize::Clause { expr, default, .. } => GridSize::Clause {
            expr: expr.clone(),
            default: Box::new(one_lane(default)),
            warp: false,
        },
        GridSize::FromTrip { trip, .. } => GridSize::FromTrip {
            trip: trip.clone(),
            threads: vec![],
        },
    }
}

/// Makes every gang loop of `b` without a `tile` or `gang(static:)` clause
/// a `gang(static:*)` one: each gang takes one chunk of consecutive
/// iterations.
pub fn chunk_gang_loops(b: &mut [Stmt]) {
    for s in b.iter_mut() {
        if let Stmt::Loop(l) = s {
            if matches!(l.par, Parallelism::Par { gang: Some(_), .. })
                && l.tile.is_empty()
                && l.chunk.is_none()
            {
                l.chunk = Some(0);
            }
        }
        for inner in s.blocks_mut() {
            chunk_gang_loops(inner);
        }
    }
}
