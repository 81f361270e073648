//! A kernel launch on the emulated device: the launch checks a GPU makes
//! (geometry within the device's limits, shared memory, `.maxntid`), the
//! blocks run one after the other (always when races are checked: the
//! detector's verdict then never depends on timing) or spread over a few
//! host threads, and a fault turned into one line naming the kernel, its
//! construct and source line, the thread, the instruction and the address
//! (with the allocation or kernel parameter it belongs to).
//!
//! Owns: [`Launch`], [`RaceMode`], [`Limits`], [`launch`], the messages.
//! May call: [`crate::block`], [`crate::exec`], [`crate::race`],
//! [`crate::program`], [`crate::mem`].

use crate::block::run_block;
use crate::exec::{Checker, Ctx, StartImage, Thread};
use crate::fault::{Fault, Kind};
use crate::mem::{self, Memory};
use crate::module::{Kernel, ParamKind};
use crate::program::Program;
use crate::race::{Race, RaceState, Side};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// What a race does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceMode {
    /// Races are not looked for (blocks may run in parallel).
    Off,
    /// The first race stops the kernel (an error, as an illegal address).
    Error,
    /// Each race (per pair of instructions) is reported, the kernel goes on.
    Warn,
}

/// The device's launch limits (an H100's).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_threads_per_block: u32,
    pub max_block: [u32; 3],
    pub max_grid: [u32; 3],
    pub max_shared_per_block: u32,
    /// The stack of each thread (CU_LIMIT_STACK_SIZE, 1 KiB by default as
    /// in CUDA). A launch gets at least what its kernel needs without
    /// recursion ([`Program::static_stack`]), as the driver gives a kernel
    /// the stack ptxas sized; only recursion deeper than that is held to it.
    pub stack_bytes: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_threads_per_block: 1024,
            max_block: [1024, 1024, 64],
            max_grid: [i32::MAX as u32, 65535, 65535],
            max_shared_per_block: 48 * 1024,
            stack_bytes: 1024,
        }
    }
}

/// One launch.
pub struct Launch<'a> {
    /// Index of the kernel in the program.
    pub kernel: usize,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dyn_shared: u32,
    /// The bytes of each parameter.
    pub params: &'a [Vec<u8>],
}

/// What a launch that ran to its end reports.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The races it found (warn mode), one line each.
    pub warnings: Vec<String>,
    /// Instructions its threads ran.
    pub instructions: u64,
}

/// The kernel's name, construct and line, as messages start.
fn kernel_text(p: &Program, k: usize) -> String {
    let kn = &p.kernels[k];
    format!(
        "kernel '{}' ({} at {}:{})",
        kn.name, kn.construct, p.kernel_source[k], kn.line
    )
}

fn dims(lin: u32, d: [u32; 3]) -> String {
    let (x, y) = (d[0].max(1), d[1].max(1));
    format!("({},{},{})", lin % x, (lin / x) % y, lin / (x * y))
}

/// "line L (text)" of a program-wide site.
fn site_text(p: &Program, site: u32) -> String {
    match p.site_of(site) {
        Some((f, s)) => {
            let st = &p.funcs[f as usize].sites[s as usize];
            let file = &p.func_source[f as usize];
            match (st.line, st.text.is_empty()) {
                (0, _) => format!("'{}'", st.text),
                (l, true) => format!("{file}:{l}"),
                (l, false) => format!("'{}' at {file}:{l}", st.text),
            }
        }
        None => "an unknown instruction".to_string(),
    }
}

/// What `addr` is, seen from the launch: a kernel parameter's memory
/// ("'a' + 8 bytes, a 400-byte allocation"), shared or local memory.
fn whose(p: &Program, mem: &Memory, k: &Kernel, params: &[Vec<u8>], addr: u64) -> String {
    match addr & mem::SPACE {
        mem::SHARED => return format!("shared memory offset {}", addr & !mem::SPACE),
        mem::LOCAL => return "the thread's local memory".to_string(),
        mem::GLOBAL => {}
        _ => return "no memory".to_string(),
    }
    let (id, off) = mem::split_global(addr);
    let size = mem.region(id).map_or(0, |r| r.size);
    let mut best: Option<(&str, u64, ParamKind)> = None;
    for (kp, bytes) in k.params.iter().zip(params) {
        if kp.kind == ParamKind::Value || bytes.len() < 8 {
            continue;
        }
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[..8]);
        let v = u64::from_le_bytes(b);
        let (vid, voff) = mem::split_global(v);
        if v & mem::SPACE == mem::GLOBAL
            && vid == id
            && voff <= off
            && best.is_none_or(|(_, o, _)| voff > o)
        {
            best = Some((&kp.name, voff, kp.kind));
        }
    }
    let region = mem.region(id).map_or("memory".to_string(), |r| {
        format!("a {size}-byte {}", r.what)
    });
    if let Some(g) = p.globals.iter().find(|g| mem::split_global(g.addr).0 == id) {
        return format!("'{}' + {off} bytes", g.symbol);
    }
    match best {
        Some((name, base, ParamKind::Scratch)) => {
            format!("the reduction scratch '{name}' + {} bytes", off - base)
        }
        Some((name, base, _)) => format!("'{name}' + {} bytes ({region})", off - base),
        None => format!("offset {off} of {region}"),
    }
}

fn side_text(p: &Program, s: &Side, grid: [u32; 3], block: [u32; 3]) -> String {
    let what = match (s.write, s.atomic) {
        (true, true) => "an atomic update",
        (true, false) => "a write",
        (false, true) => "an atomic read",
        (false, false) => "a read",
    };
    format!(
        "{what} by block {} thread {} ({})",
        dims(s.block, grid),
        dims(s.thread, block),
        site_text(p, s.site)
    )
}

/// The one-line report of a race.
#[allow(clippy::too_many_arguments)]
fn race_text(
    p: &Program,
    mem: &Memory,
    kernel: usize,
    params: &[Vec<u8>],
    r: &Race,
    grid: [u32; 3],
    block: [u32; 3],
) -> String {
    let why = if r.first.block != r.second.block {
        "different blocks, not ordered by a fence and an atomic"
    } else {
        "one block, no barrier between them"
    };
    format!(
        "data race in {} on {} at {:#x}: {} and {} ({why})",
        kernel_text(p, kernel),
        whose(p, mem, &p.kernels[kernel], params, r.addr),
        r.addr,
        side_text(p, &r.first, grid, block),
        side_text(p, &r.second, grid, block)
    )
}

/// The one-line message of a fault in block `blk` (linear).
fn fault_text(p: &Program, mem: &Memory, l: &Launch, blk: u32, f: &Fault) -> String {
    let who = format!(
        "block {} thread {}",
        dims(blk, l.grid),
        dims(f.thread, l.block)
    );
    let at = f
        .site
        .map_or(String::new(), |s| format!(" in {}", site_text(p, s)));
    let k = &p.kernels[l.kernel];
    match &f.kind {
        Kind::Illegal {
            addr,
            bytes,
            write,
            why,
        } => format!(
            "CUDA_ERROR_ILLEGAL_ADDRESS (emulated): {} {who} {} {bytes} bytes at {addr:#x}{at}: {why}{}",
            kernel_text(p, l.kernel),
            if *write { "writes" } else { "reads" },
            match addr & mem::SPACE {
                mem::GLOBAL if why.contains("past the end") => {
                    format!(" ({})", whose(p, mem, k, l.params, *addr))
                }
                _ => String::new(),
            }
        ),
        Kind::Misaligned { addr, bytes, write } => format!(
            "CUDA_ERROR_MISALIGNED_ADDRESS (emulated): {} {who} {} {bytes} bytes at {addr:#x}{at}, not a multiple of {bytes} ({})",
            kernel_text(p, l.kernel),
            if *write { "writes" } else { "reads" },
            whose(p, mem, k, l.params, *addr)
        ),
        Kind::Race(r) => race_text(p, mem, l.kernel, l.params, r, l.grid, l.block),
        Kind::Deadlock(why) => format!(
            "CUDA_ERROR_LAUNCH_TIMEOUT (emulated): {} block {}: {why}",
            kernel_text(p, l.kernel),
            dims(blk, l.grid)
        ),
        Kind::StackOverflow => format!(
            "CUDA_ERROR_LAUNCH_FAILED (emulated): {} {who}: call stack or local memory overflow",
            kernel_text(p, l.kernel)
        ),
        Kind::Internal(m) => format!(
            "internal error of the emulator in {} {who}: {m}",
            kernel_text(p, l.kernel)
        ),
    }
}

/// Checks the launch as the driver would (CUDA_ERROR_INVALID_VALUE).
fn check_geometry(p: &Program, l: &Launch, lim: &Limits) -> Result<u32, String> {
    let k = &p.kernels[l.kernel];
    let f = &p.funcs[k.func as usize];
    let bad = |why: String| {
        Err(format!(
            "CUDA_ERROR_INVALID_VALUE (emulated): {} launched with grid ({},{},{}) block ({},{},{}): {why}",
            kernel_text(p, l.kernel),
            l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2]
        ))
    };
    for d in 0..3 {
        if l.grid[d] == 0 || l.block[d] == 0 {
            return bad("a dimension of 0".into());
        }
        if l.grid[d] > lim.max_grid[d] {
            return bad(format!(
                "grid dimension {d} over the device's {}",
                lim.max_grid[d]
            ));
        }
        if l.block[d] > lim.max_block[d] {
            return bad(format!(
                "block dimension {d} over the device's {}",
                lim.max_block[d]
            ));
        }
    }
    let blocks = u64::from(l.grid[0]) * u64::from(l.grid[1]) * u64::from(l.grid[2]);
    if blocks > u64::from(u32::MAX) {
        return bad(format!("{blocks} blocks, more than the emulator runs"));
    }
    let threads = u64::from(l.block[0]) * u64::from(l.block[1]) * u64::from(l.block[2]);
    if threads > u64::from(lim.max_threads_per_block) {
        return bad(format!(
            "{threads} threads per block, over the device's {}",
            lim.max_threads_per_block
        ));
    }
    if let Some(max) = k.max_threads {
        if threads > u64::from(max) {
            return bad(format!(
                "{threads} threads per block, over the kernel's .maxntid of {max}"
            ));
        }
    }
    let shared = u64::from(f.shared_bytes) + u64::from(l.dyn_shared);
    if shared > u64::from(lim.max_shared_per_block) {
        return bad(format!(
            "{shared} bytes of shared memory per block, over the device's {}",
            lim.max_shared_per_block
        ));
    }
    if l.params.len() != k.params.len() {
        return bad(format!(
            "{} parameters given, the kernel has {}",
            l.params.len(),
            k.params.len()
        ));
    }
    Ok(threads as u32)
}

/// The error a driver gives at once for launch `l` (bad geometry, too
/// much shared memory, wrong parameter count), if any.
pub fn check_launch(p: &Program, l: &Launch, lim: &Limits) -> Result<(), String> {
    check_geometry(p, l, lim).map(|_| ())
}

/// Runs `l`. `race`: the device's race detector (used unless `mode` is
/// `Off`); `out` receives device printf output; `workers`: host threads
/// for blocks when races are not checked. The error is the one-line
/// message of the first fault (or of a bad launch).
#[allow(clippy::too_many_arguments)]
pub fn launch(
    p: &Program,
    mem: &Memory,
    race: &mut RaceState,
    mode: RaceMode,
    lim: &Limits,
    l: &Launch,
    out: &(dyn Fn(&[u8]) + Sync),
    workers: usize,
) -> Result<Report, String> {
    let threads = check_geometry(p, l, lim)?;
    let k = &p.kernels[l.kernel];
    let f = &p.funcs[k.func as usize];
    let shared_bytes = f.shared_bytes as usize + l.dyn_shared as usize;
    let stack = (lim.stack_bytes as usize).max(p.static_stack(k.func));
    let nblocks = u64::from(l.grid[0]) * u64::from(l.grid[1]) * u64::from(l.grid[2]);
    let block_of = |b: u64| -> [u32; 3] {
        let (x, y) = (u64::from(l.grid[0]), u64::from(l.grid[1]));
        [(b % x) as u32, ((b / x) % y) as u32, (b / (x * y)) as u32]
    };
    let new_threads = || -> Vec<Thread> { (0..threads).map(|_| Thread::new()).collect() };
    let image = StartImage::new(p, k.func, l.params);
    let start = |ts: &mut [Thread]| {
        for (lin, t) in ts.iter_mut().enumerate() {
            let lin = lin as u32;
            let tid = [
                lin % l.block[0],
                (lin / l.block[0]) % l.block[1],
                lin / (l.block[0] * l.block[1]),
            ];
            t.start(&image, lin, tid);
        }
    };
    let shared_words = shared_bytes.div_ceil(8);
    if mode != RaceMode::Off || workers <= 1 || nblocks == 1 {
        let mut checker = Checker {
            state: race,
            warn: mode == RaceMode::Warn,
            program: p as *const Program as usize,
            found: vec![],
        };
        if mode != RaceMode::Off {
            checker.state.begin_launch();
        }
        let mut ts = new_threads();
        let mut shared = vec![0xABAB_ABAB_ABAB_ABABu64; shared_words];
        let mut instructions = 0u64;
        for b in 0..nblocks {
            start(&mut ts);
            shared.fill(0xABAB_ABAB_ABAB_ABAB);
            let blk = b as u32;
            let checking = mode != RaceMode::Off;
            if checking {
                checker.state.begin_block(blk, shared_bytes);
            }
            let mut ctx = Ctx {
                prog: p,
                mem,
                shared: &mut shared,
                ctaid: block_of(b),
                ntid: l.block,
                nctaid: l.grid,
                block: blk,
                race: if checking { Some(&mut checker) } else { None },
                out,
                stack,
            };
            run_block(&mut ctx, &mut ts).map_err(|fault| fault_text(p, mem, l, blk, &fault))?;
            instructions += ts.iter().map(|t| t.steps).sum::<u64>();
        }
        return Ok(Report {
            warnings: checker
                .found
                .iter()
                .map(|r| race_text(p, mem, l.kernel, l.params, r, l.grid, l.block))
                .collect(),
            instructions,
        });
    }
    // Blocks spread over `workers` host threads, each taking the next.
    let next = AtomicU64::new(0);
    let steps = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let first: Mutex<Option<(u64, String)>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..workers.min(nblocks as usize) {
            s.spawn(|| {
                let mut ts = new_threads();
                let mut shared = vec![0u64; shared_words];
                loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= nblocks || failed.load(Ordering::Relaxed) {
                        return;
                    }
                    start(&mut ts);
                    shared.fill(0xABAB_ABAB_ABAB_ABAB);
                    let mut ctx = Ctx {
                        prog: p,
                        mem,
                        shared: &mut shared,
                        ctaid: block_of(b),
                        ntid: l.block,
                        nctaid: l.grid,
                        block: b as u32,
                        race: None,
                        out,
                        stack,
                    };
                    let r = run_block(&mut ctx, &mut ts);
                    let n = ts.iter().map(|t| t.steps).sum::<u64>();
                    steps.fetch_add(n, Ordering::Relaxed);
                    if let Err(fault) = r {
                        failed.store(true, Ordering::Relaxed);
                        let msg = fault_text(p, mem, l, b as u32, &fault);
                        let mut g = first.lock().unwrap_or_else(|e| e.into_inner());
                        if g.as_ref().is_none_or(|(fb, _)| b < *fb) {
                            *g = Some((b, msg));
                        }
                        return;
                    }
                }
            });
        }
    });
    match first.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some((_, msg)) => Err(msg),
        None => Ok(Report {
            warnings: vec![],
            instructions: steps.into_inner(),
        }),
    }
}
