//! Launch geometry: the grid and block of a planned compute region, from
//! its construct's sizes, its loops' clauses and trip counts, and the
//! device (at run time); and the remarks that name the sizes.
//!
//! Owns: `RegionPlan::launch`, `RegionPlan::sized_remarks` and
//! [`warp_friendly`]. Defaults: 128 vector lanes (32×8 or 32×4×2 when
//! vector loops use two or three block dimensions), fewer for short
//! constant vector loops; workers fill blocks of up to 1024 threads, no
//! more than a short worker loop has iterations; gangs enough for the
//! outermost gang loop (along x at most a wave of resident blocks, chosen
//! by the runtime). May call: `levels`, `ir`.

use super::levels::Levels;
use super::levels::{Decision, RegionKind, RegionPlan, Sizes, DIM};
use crate::ir::{GridSize, Launch, Parallelism, SrcLoc};

/// `n` lanes rounded up to a power of two when at most 32, else to a
/// multiple of 32 (at most 1024); 0 stays 0. Mirrors `__ptxrt_warp_friendly`.
pub fn warp_friendly(n: u32) -> u32 {
    match n {
        0 => 0,
        1..=32 => n.next_power_of_two(),
        _ => n.div_ceil(32).saturating_mul(32).min(1024),
    }
}

impl RegionPlan {
    /// The remarks with the thread counts of `launch` (this plan's launch)
    /// filled in: `vector(block.x)` becomes `vector(block.x=128)`.
    pub fn sized_remarks(&self, launch: &Launch) -> Vec<(SrcLoc, String)> {
        let size = |g: &GridSize| match g {
            GridSize::Const(n) => Some(n.to_string()),
            GridSize::Host(e) => Some(
                e.strip_prefix('(')
                    .and_then(|s| s.strip_suffix(')'))
                    .filter(|s| s.chars().all(|c| c.is_alphanumeric() || c == '_'))
                    .unwrap_or(e)
                    .to_string(),
            ),
            GridSize::FromTrip { .. } => None,
        };
        self.remarks
            .iter()
            .map(|(loc, text)| {
                let mut text = text.clone();
                for (k, dim) in DIM.iter().enumerate() {
                    if let Some(n) = size(&launch.block[k]) {
                        for what in ["vector", "workers"] {
                            text = text.replace(
                                &format!("{what}(block.{dim})"),
                                &format!("{what}(block.{dim}={n})"),
                            );
                        }
                    }
                }
                (loc.clone(), text)
            })
            .collect()
    }

    /// The launch geometry: the construct's sizes, the loops' clauses, the
    /// trip counts of the loops on each grid dimension; `used` adds the
    /// levels of routines the region calls.
    pub fn launch(&self, sizes: &Sizes, used: Levels) -> Launch {
        if self.kind == RegionKind::Serial {
            return Launch::single();
        }
        let one = || GridSize::Const(1);
        let mut grid = [one(), one(), one()];
        let mut block = [one(), one(), one()];
        let mut gdims = [false; 3];
        let mut vdims = [false; 3];
        let mut worker = used.worker;
        for d in &self.decisions {
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
                let explicit = self.decisions.iter().find_map(|d| match d.par {
                    Parallelism::Par {
                        vector: Some(v), ..
                    } if usize::from(v) == k => d.vector_len.clone(),
                    _ => None,
                });
                block[k] = match (k, &sizes.vector_length, explicit) {
                    (_, _, Some(e)) => GridSize::Host(e),
                    (0, Some(e), None) => GridSize::Host(e.clone()),
                    (0, None, None) if self.kind == RegionKind::Parallel && !used.vector => {
                        // Vector loops that are all short: no more lanes
                        // than iterations (whole warps).
                        let trips: Option<Vec<u64>> = self
                            .decisions
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
                            .map(|d| d.const_trip)
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
            }
        }
        if worker {
            let explicit = self.decisions.iter().find_map(|d| d.worker_num.clone());
            block[1] = match (&sizes.num_workers, explicit, &block[0]) {
                (Some(e), _, _) => GridSize::Host(e.clone()),
                (None, Some(e), _) => GridSize::Host(e),
                // Workers fill a block of up to 1024 threads (at least 4 of
                // them where that fits): worker loops are how a few gangs use
                // a whole SM. Rows wider than a warp synchronise on named
                // barriers, of which a block has 15 for rows.
                // No more workers than a short worker loop has iterations.
                (None, None, GridSize::Const(x)) if *x >= 1 => {
                    let most = (1024 / x).max(1);
                    let cap = if *x > 32 { 15 } else { 32 };
                    let trips: Option<Vec<u64>> = self
                        .decisions
                        .iter()
                        .filter(|d| matches!(d.par, Parallelism::Par { worker: true, .. }))
                        .map(|d| d.const_trip)
                        .collect();
                    let short = match trips.and_then(|t| t.into_iter().max()) {
                        Some(t) if !used.worker && t < 32 => (t.max(1) as u32).next_power_of_two(),
                        _ => 32,
                    };
                    GridSize::Const(most.min(cap).min(short).max(4.min(most).min(short)))
                }
                (None, None, _) => GridSize::Const(4),
            };
        } else if let (Some(e), false) = (&sizes.num_workers, vdims[1]) {
            block[1] = GridSize::Host(e.clone());
        }
        // Grid: num_gangs, gang(num:), else from the trip count of the
        // outermost loop on each dimension.
        for k in 0..3 {
            if let Some(e) = sizes.num_gangs.get(k) {
                grid[k] = GridSize::Host(e.clone());
                continue;
            }
            if !gdims[k] {
                continue;
            }
            let on_k = self.decisions.iter().find(
                |d| matches!(d.par, Parallelism::Par { gang: Some(g), .. } if usize::from(g) == k),
            );
            grid[k] = match on_k {
                Some(Decision {
                    gang_num: Some(e), ..
                }) => GridSize::Host(e.clone()),
                Some(d) => {
                    let Parallelism::Par { worker, vector, .. } = d.par else {
                        continue;
                    };
                    let mut threads: Vec<u8> = vector.into_iter().collect();
                    if worker {
                        threads.push(1);
                    }
                    GridSize::FromTrip {
                        trip: d.trip.clone(),
                        threads,
                    }
                }
                None => GridSize::FromTrip {
                    trip: None,
                    threads: vec![],
                },
            };
        }
        // Sizes written as integer constants are constants (so the
        // kernel's code can fold them).
        for g in grid.iter_mut().chain(block.iter_mut()) {
            if let GridSize::Host(e) = g {
                let digits = e.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace());
                let digits = digits.trim_end_matches(['u', 'U']);
                if let Ok(n) = digits.parse::<u32>() {
                    *g = GridSize::Const(n);
                }
            }
        }
        // Reductions combine vector lanes with warp shuffles: a row of
        // lanes is a power of two up to 32, or whole warps (as nvc rounds
        // vector_length; loops stride, so more lanes are always correct).
        if self.reduces {
            block[0] = match &block[0] {
                GridSize::Const(n) => GridSize::Const(warp_friendly(*n)),
                GridSize::Host(e) => {
                    GridSize::Host(format!("__ptxrt_warp_friendly((__ptxrt_u32)({e}))"))
                }
                g => g.clone(),
            };
        }
        Launch { grid, block }
    }
}
