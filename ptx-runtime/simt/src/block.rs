//! One block: its threads interleaved by the emulator. Each runnable
//! thread runs until it waits (or ends); when none can run, the waits that
//! can complete do — the block barrier (every live thread there, all at one
//! instruction), a named barrier (its count of threads there), a warp sync
//! (every lane of its mask there), a shuffle (every lane of its mask at a
//! shuffle of that mask: values are exchanged) — and threads run again.
//! When nothing can complete, the block is stuck: a deadlock fault that
//! says who waits where (threads at different block barriers, a lane that
//! exited or does not exist in a mask, a barrier that never fills up).
//!
//! Owns: [`run_block`]. May call: [`crate::exec`], [`crate::fault`],
//! [`crate::program`].

use crate::exec::{Ctx, State, Thread};
use crate::fault::{Fault, Kind};

/// Threads per warp.
pub const WARP: u32 = 32;

/// Runs the threads of one block to the end.
pub(crate) fn run_block(ctx: &mut Ctx, threads: &mut [Thread]) -> Result<(), Fault> {
    loop {
        for t in threads.iter_mut() {
            if t.state == State::Run {
                ctx.run(t)?;
            }
        }
        if threads.iter().all(|t| t.state == State::Exited) {
            return Ok(());
        }
        let mut released = block_barrier(ctx, threads)?;
        released |= named_barriers(threads)?;
        released |= warps(ctx, threads)?;
        if !released {
            return Err(stuck(ctx, threads));
        }
    }
}

/// The site (instruction) a thread waits at, as "line N" text.
fn at(ctx: &Ctx, func: u32, pc: u32) -> String {
    let f = &ctx.prog.funcs[func as usize];
    let site = match f.code.get(pc as usize) {
        Some(crate::code::Inst::Barrier { site })
        | Some(crate::code::Inst::BarNamed { site, .. })
        | Some(crate::code::Inst::WarpSync { site, .. })
        | Some(crate::code::Inst::Shfl { site, .. }) => f.sites.get(*site as usize),
        _ => None,
    };
    match site {
        Some(s) if s.line > 0 => format!("line {}", s.line),
        _ => format!("{}+{pc}", f.name),
    }
}

fn tid3(ctx: &Ctx, lin: u32) -> String {
    let (x, y) = (ctx.ntid[0].max(1), ctx.ntid[1].max(1));
    format!("({},{},{})", lin % x, (lin / x) % y, lin / (x * y))
}

fn block_barrier(ctx: &Ctx, threads: &mut [Thread]) -> Result<bool, Fault> {
    let mut first: Option<(u32, u32, u32)> = None;
    for t in threads.iter() {
        match t.state {
            State::Exited => {}
            State::Bar { func, pc } => match first {
                None => first = Some((func, pc, t.lin)),
                Some((f, p, lin)) if (f, p) != (func, pc) => {
                    let why = format!(
                        "threads wait at different block barriers: thread {} at {}, thread {} at {} (barrier.sync.aligned: every thread must reach the same one)",
                        tid3(ctx, lin),
                        at(ctx, f, p),
                        tid3(ctx, t.lin),
                        at(ctx, func, pc)
                    );
                    return Err(Fault {
                        kind: Kind::Deadlock(why),
                        thread: lin,
                        func: f,
                        site: None,
                    });
                }
                Some(_) => {}
            },
            _ => return Ok(false),
        }
    }
    if first.is_none() {
        return Ok(false);
    }
    for t in threads.iter_mut() {
        if matches!(t.state, State::Bar { .. }) {
            t.state = State::Run;
            t.bep += 1;
        }
    }
    Ok(true)
}

fn named_barriers(threads: &mut [Thread]) -> Result<bool, Fault> {
    let mut ids: Vec<(u32, u32)> = vec![];
    for t in threads.iter() {
        if let State::Named { id, count, .. } = t.state {
            if !ids.iter().any(|&(i, _)| i == id) {
                ids.push((id, count));
            }
        }
    }
    let mut released = false;
    for (id, count) in ids {
        let waiting = threads
            .iter()
            .filter(|t| matches!(t.state, State::Named { id: i, .. } if i == id))
            .count() as u32;
        if waiting >= count {
            for t in threads.iter_mut() {
                if matches!(t.state, State::Named { id: i, .. } if i == id) {
                    t.state = State::Run;
                    t.rep += 1;
                }
            }
            released = true;
        }
    }
    Ok(released)
}

/// Completes the warp syncs and shuffles whose lanes have all arrived.
fn warps(ctx: &Ctx, threads: &mut [Thread]) -> Result<bool, Fault> {
    let mut released = false;
    for base in (0..threads.len()).step_by(WARP as usize) {
        let end = (base + WARP as usize).min(threads.len());
        let warp = &mut threads[base..end];
        // Masks of the lanes waiting here.
        let mut masks: Vec<(u32, bool)> = vec![];
        for t in warp.iter() {
            let m = match t.state {
                State::Warp { mask, .. } => (mask, false),
                State::Shfl { mask, .. } => (mask, true),
                _ => continue,
            };
            if !masks.contains(&m) {
                masks.push(m);
            }
        }
        for (mask, shuffle) in masks {
            let waits = |t: &Thread| match t.state {
                State::Warp { mask: m, .. } => !shuffle && m == mask,
                State::Shfl { mask: m, .. } => shuffle && m == mask,
                _ => false,
            };
            let complete = (0..WARP)
                .all(|lane| mask & (1 << lane) == 0 || warp.get(lane as usize).is_some_and(waits));
            if !complete {
                continue;
            }
            // Every lane that waits with this mask must be in it.
            if let Some(t) = warp
                .iter()
                .find(|t| waits(t) && mask & (1 << (t.lin % WARP)) == 0)
            {
                let (func, pc) = wait_site(t);
                return Err(Fault {
                    kind: Kind::Deadlock(format!(
                        "thread {} runs a {} at {} with member mask {mask:#010x}, which leaves out its own lane {}",
                        tid3(ctx, t.lin),
                        if shuffle { "shuffle" } else { "warp sync" },
                        at(ctx, func, pc),
                        t.lin % WARP
                    )),
                    thread: t.lin,
                    func,
                    site: None,
                });
            }
            if shuffle {
                exchange(ctx, warp, mask)?;
            } else {
                for t in warp.iter_mut().filter(|t| waits(t)) {
                    t.state = State::Run;
                    t.rep += 1;
                }
            }
            released = true;
        }
    }
    Ok(released)
}

fn wait_site(t: &Thread) -> (u32, u32) {
    match t.state {
        State::Bar { func, pc }
        | State::Named { func, pc, .. }
        | State::Warp { func, pc, .. }
        | State::Shfl { func, pc, .. } => (func, pc),
        _ => (t.func, t.pc),
    }
}

/// `shfl.sync.bfly` among the lanes of `mask` (all waiting): lane L gets
/// the value of lane L ^ b when that is a lane (b < 32), else its own.
fn exchange(ctx: &Ctx, warp: &mut [Thread], mask: u32) -> Result<(), Fault> {
    let values: Vec<u64> = warp
        .iter()
        .map(|t| match t.state {
            State::Shfl { value, .. } => value,
            _ => 0,
        })
        .collect();
    for lane in 0..warp.len() {
        if mask & (1 << lane) == 0 {
            continue;
        }
        let State::Shfl {
            dst,
            lane_xor,
            func,
            pc,
            ..
        } = warp[lane].state
        else {
            continue;
        };
        let src = lane as u32 ^ lane_xor;
        let v = if src >= WARP {
            values[lane]
        } else if mask & (1 << src) == 0 {
            let t = &warp[lane];
            return Err(Fault {
                kind: Kind::Deadlock(format!(
                    "thread {} shuffles from lane {src}, which is not in the member mask {mask:#010x} (an undefined result) at {}",
                    tid3(ctx, t.lin),
                    at(ctx, func, pc)
                )),
                thread: t.lin,
                func,
                site: None,
            });
        } else {
            values[src as usize]
        };
        let t = &mut warp[lane];
        t.set_reg(dst, v);
        t.state = State::Run;
    }
    Ok(())
}

/// The fault of a block where nothing can go on.
fn stuck(ctx: &Ctx, threads: &[Thread]) -> Fault {
    let mut groups: Vec<(String, u32, usize)> = vec![];
    let mut first = None;
    for t in threads {
        let what = match t.state {
            State::Exited | State::Run => continue,
            State::Bar { func, pc } => format!("the block barrier at {}", at(ctx, func, pc)),
            State::Named {
                id,
                count,
                func,
                pc,
            } => format!(
                "named barrier {id} of {count} threads at {}",
                at(ctx, func, pc)
            ),
            State::Warp { mask, func, pc } => {
                format!("a warp sync of mask {mask:#010x} at {}", at(ctx, func, pc))
            }
            State::Shfl { mask, func, pc, .. } => format!(
                "a shuffle of member mask {mask:#010x} at {}",
                at(ctx, func, pc)
            ),
        };
        first.get_or_insert(t);
        match groups.iter_mut().find(|g| g.0 == what) {
            Some(g) => g.2 += 1,
            None => groups.push((what, t.lin, 1)),
        }
    }
    let exited = threads.iter().filter(|t| t.state == State::Exited).count();
    let mut parts: Vec<String> = groups
        .iter()
        .map(|(what, lin, n)| {
            format!(
                "{n} thread{} (first {}) wait at {what}",
                if *n == 1 { "" } else { "s" },
                tid3(ctx, *lin)
            )
        })
        .collect();
    if exited > 0 {
        parts.push(format!(
            "{exited} thread{} exited",
            if exited == 1 { "" } else { "s" }
        ));
    }
    let (thread, func) = first.map_or((0, 0), |t| (t.lin, wait_site(t).0));
    Fault {
        kind: Kind::Deadlock(format!(
            "deadlock: {} (a wait that can never complete: missing lanes, exited threads or a barrier count never reached)",
            parts.join(", ")
        )),
        thread,
        func,
        site: None,
    }
}
