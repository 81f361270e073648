//! Launch shapes and problem sizes: the `num_gangs`, `num_workers` and
//! `vector_length` clauses of a compute construct (constants, variables declared
//! before the region, or expressions of `n`), the program's `R` x `C` size (odd ones
//! with `odd_sizes`), and run-time trip counts of loops.
//!
//! Every loop of accc's schedules strides over its iterations, so no shape may
//! change a program's output: the shapes only move the iterations to other
//! threads. Shapes beyond the device (`num_workers(16) vector_length(128)` asks
//! for 2048 threads in a block) are `oversized_launch`: accc must fit them.
//! Uses only the random stream and the features of `Ctx`.

use super::ctx::Ctx;

/// Vector lengths worth trying: 1, warp-unfriendly ones, a warp, around it, the
/// block limit and a non-power-of-two near it.
const VECTOR_LENGTHS: [i128; 11] = [1, 2, 7, 31, 32, 33, 64, 96, 128, 1000, 1024];
/// Worker counts: 1, small odd ones, powers of two up to a warp.
const WORKERS: [i128; 12] = [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 31, 32];
/// Gang counts: 1, small, odd, prime, a few hundred.
const GANGS: [i128; 14] = [1, 2, 3, 5, 7, 13, 31, 32, 33, 97, 127, 128, 255, 331];
/// The most threads a block may have on the GPUs accc targets.
pub const MAX_BLOCK: i128 = 1024;

/// Sizes `R` x `C` of the odd problem sizes: N = 1, 31, 32, 33, 1023, 1025.
const ODD_SIZES: [(i128, i128); 13] = [
    (1, 1),
    (1, 31),
    (31, 1),
    (1, 32),
    (4, 8),
    (2, 16),
    (3, 11),
    (33, 1),
    (31, 33),
    (33, 31),
    (3, 341),
    (25, 41),
    (41, 25),
];

/// The program's rows and columns: 2-6 x 3-32, or with `odd_sizes` sometimes one
/// of `ODD_SIZES`.
pub fn problem_size(ctx: &mut Ctx) -> (i128, i128) {
    if ctx.feat.odd_sizes && ctx.rng.chance(35) {
        ctx.used.odd_sizes = true;
        return *ctx.rng.pick(&ODD_SIZES);
    }
    let r = i128::from(ctx.rng.range(2, 6));
    let c = i128::from(ctx.rng.range(3, 32));
    (r, c)
}

/// A trip count for a loop over `0..full`: the bound's C text, its value, and the
/// declaration it needs before the region. `full_text` spells the full count.
pub struct Trips {
    pub text: String,
    pub value: i128,
    pub decl: Option<String>,
}

impl Trips {
    /// All `full` iterations, spelled `text`.
    pub fn full(text: &str, full: i128) -> Trips {
        Trips {
            text: text.to_string(),
            value: full,
            decl: None,
        }
    }

    /// Whether the loop runs over every element.
    pub fn is_full(&self, full: i128) -> bool {
        self.value == full
    }
}

/// With `odd_sizes`, sometimes a run-time trip count below `full` (0, 1, 31, 32,
/// 33, full - 1, ...) in a variable declared before the region; else `full`.
pub fn trips(ctx: &mut Ctx, full_text: &str, full: i128) -> Trips {
    if !(ctx.feat.odd_sizes && ctx.rng.chance(25)) {
        return Trips::full(full_text, full);
    }
    ctx.used.odd_sizes = true;
    let choices = [0, 1, full - 1, full / 2, 31, 32, 33, full];
    let value = (*ctx.rng.pick(&choices)).clamp(0, full);
    let name = ctx.fresh("m");
    let init = if value == full {
        full_text.to_string()
    } else if value == full - 1 && ctx.rng.chance(50) {
        format!("{full_text} - 1")
    } else {
        value.to_string()
    };
    Trips {
        text: name.clone(),
        value,
        decl: Some(format!("int {name} = {init};")),
    }
}

/// The size clauses of one compute construct, and the declarations of the
/// variables they use.
#[derive(Default)]
pub struct Launch {
    pub clauses: String,
    pub decls: Vec<String>,
}

/// How a construct's gangs may be chosen.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Gangs {
    /// Any number: every loop that writes memory is gang-partitioned.
    Any,
    /// Exactly one (the loops are not gang-partitioned: more gangs would run them
    /// redundantly).
    One,
}

/// The size clauses for a `parallel` (or `kernels`) construct with `launch_shapes`:
/// each of num_gangs, num_workers, vector_length sometimes, as a constant, a
/// variable or an expression of `n` (whose value is `n_value`).
pub fn launch(ctx: &mut Ctx, gangs: Gangs, n_value: i128) -> Launch {
    ctx.used.launch_shapes = true;
    let mut out = Launch::default();
    let gang = match gangs {
        Gangs::One => Some(1),
        Gangs::Any => ctx.rng.chance(60).then(|| {
            if ctx.rng.chance(70) {
                *ctx.rng.pick(&GANGS)
            } else {
                i128::from(ctx.rng.range(1, 300))
            }
        }),
    };
    let mut workers = ctx.rng.chance(60).then(|| *ctx.rng.pick(&WORKERS));
    let mut vector = ctx.rng.chance(60).then(|| *ctx.rng.pick(&VECTOR_LENGTHS));
    let threads = workers.unwrap_or(1) * vector.unwrap_or(32);
    if threads > MAX_BLOCK {
        if ctx.feat.oversized_launch && ctx.rng.chance(50) {
            ctx.used.oversized_launch = true;
        } else {
            // Fit the block: fewer workers.
            workers = workers.map(|w| (MAX_BLOCK / vector.unwrap_or(32)).clamp(1, w));
        }
    } else if ctx.feat.oversized_launch && ctx.rng.chance(8) {
        ctx.used.oversized_launch = true;
        let (w, v) = *ctx
            .rng
            .pick(&[(16, 128), (32, 64), (8, 1024), (32, 1024), (3, 1000)]);
        workers = Some(w);
        vector = Some(v);
    }
    for (clause, value) in [
        ("num_gangs", gang),
        ("num_workers", workers),
        ("vector_length", vector),
    ] {
        if let Some(v) = value {
            let text = size_text(ctx, clause, v, n_value, &mut out.decls);
            out.clauses += &format!(" {clause}({text})");
        }
    }
    out
}

/// `v` spelled as a constant, a variable declared before the region, or an
/// expression of `n` whose value is `v`.
fn size_text(
    ctx: &mut Ctx,
    clause: &str,
    v: i128,
    n_value: i128,
    decls: &mut Vec<String>,
) -> String {
    match ctx.rng.below(4) {
        0 | 1 => v.to_string(),
        2 => {
            let name = ctx.fresh(match clause {
                "num_gangs" => "ng",
                "num_workers" => "nw",
                _ => "vl",
            });
            decls.push(format!("int {name} = {v};"));
            name
        }
        _ => {
            // n % k + b with the value v: b = v - n % k must be at least 1.
            let k = i128::from(ctx.rng.range(2, 9));
            let b = v - n_value % k;
            if b >= 1 {
                format!("n % {k} + {b}")
            } else {
                format!("n - n + {v}")
            }
        }
    }
}
