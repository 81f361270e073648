//! Launch sizes: how the host computes each kernel's launch, from the sizes
//! its construct asks for ([`Launch`]), as host expressions
//! ([`LaunchPlan`]). The policy lives here; `codegen::host` only renders:
//! * a clause's size that is not positive means its default
//!   (`__ptxrt_size_or`), rounded for warp shuffles where the kernel's
//!   reductions need it (`__ptxrt_warp_friendly`);
//! * a block with a size known only at run time is fitted to the device's
//!   limits and the loaded kernel's (`__ptxrt_fit_block_to` of
//!   `__ptxrt_kernel_threads`: the threads its registers allow) before
//!   the launch, keeping the constant dimensions, which `geometry` fitted
//!   already;
//! * along grid x the runtime chooses enough gangs for the loop from the
//!   device and kernel (`__ptxrt_kernel_gangs`: at most a wave of the
//!   kernel's blocks the device holds at once, by the driver's occupancy
//!   calculator; the loop strides), every gang taking a block's worth of
//!   iterations of a loop also partitioned over threads; along y and z, enough gangs to
//!   cover the loop (at most 65535), 64 where its trip count is unknown;
//! * a synchronous construct whose kernel prints waits for it at its end
//!   (`__ptxrt_settle`): the runtime otherwise waits only where the host
//!   next observes the device, and printed lines reach the host without it.
//!
//! Owns: [`plan`]. May call: `ir` only.

use crate::ir::{GridSize, HostExpr, Launch, LaunchPlan};

/// Gangs along y or z for a loop whose trip count is unknown where the
/// construct is.
const UNKNOWN_TRIP_GANGS: u32 = 64;

/// The host's computation of `launch`; `prints`: the kernel prints, so
/// its construct's end waits for it ([`LaunchPlan::wait`]).
pub fn plan(launch: &Launch, prints: bool) -> LaunchPlan {
    let block: [HostExpr; 3] = std::array::from_fn(|d| size(&launch.block[d], d, &[]));
    let fixed = (0..3)
        .filter(|&d| matches!(launch.block[d], GridSize::Const(_)))
        .fold(0u8, |m, d| m | 1 << d);
    let fit = (fixed != 0b111).then_some(fixed);
    // What a gang's iterations are multiplied by: the block as launched.
    let threads: [HostExpr; 3] = match fit {
        Some(_) => std::array::from_fn(|d| HostExpr::Block(d as u8)),
        None => block.clone(),
    };
    let grid = std::array::from_fn(|d| size(&launch.grid[d], d, &threads));
    LaunchPlan {
        block,
        fit,
        grid,
        wait: prints,
    }
}

/// Launch dimension `dim`'s size `g`; `block`: the block's sizes (for the
/// gangs a loop needs; empty for block sizes).
fn size(g: &GridSize, dim: usize, block: &[HostExpr]) -> HostExpr {
    match g {
        GridSize::Const(n) => HostExpr::Const(*n),
        GridSize::Clause {
            expr,
            default,
            warp,
        } => {
            let v = HostExpr::SizeOr(
                Box::new(HostExpr::User(expr.clone())),
                Box::new(size(default, dim, block)),
            );
            if *warp {
                HostExpr::WarpFriendly(Box::new(v))
            } else {
                v
            }
        }
        GridSize::FromTrip { trip, threads } => {
            let per = threads
                .iter()
                .filter_map(|&t| block.get(usize::from(t)).cloned())
                .reduce(|a, b| HostExpr::Mul(Box::new(a), Box::new(b)))
                .unwrap_or(HostExpr::Const(1));
            let trip = trip.as_ref().map(|t| Box::new(HostExpr::User(t.clone())));
            match (dim, trip) {
                (0, trip) => HostExpr::DefaultGangs {
                    trip,
                    per: Box::new(per),
                },
                (_, Some(trip)) => HostExpr::Cover {
                    trip,
                    per: Box::new(per),
                },
                (_, None) => HostExpr::Const(UNKNOWN_TRIP_GANGS),
            }
        }
    }
}
