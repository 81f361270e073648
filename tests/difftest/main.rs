//! Differential test: a small Csmith for OpenACC C (see tests/README.md).
//!
//! `program::generate(seed, features)` writes a random, type-correct C program with
//! 1-4 OpenACC compute regions and no undefined behaviour; the same seed always gives
//! the same program. Each program is built by plain `cc` (pragmas ignored: the
//! oracle) and by `accc -O2 -gpu=emu`, both are run, and their outputs must match
//! (integers exactly, floats and doubles within the program's `// tolerance:`).
//! Without a GPU accc's build runs through the host fallback, and then on the
//! emulated device (`libptxrt-emu.so`, races stopping it), where the device code
//! itself is checked; `scripts/gpu-bundle.sh` runs the same programs on a GPU
//! (`write_programs`). Seeds in [`EMU_KNOWN_FAILURES`] must still fail on the
//! emulated device with the report given there.
//!
//! * `ACCC_DIFFTEST_SEED=N cargo test --test difftest` checks program N only;
//!   `ACCC_DIFFTEST_COUNT` / `ACCC_DIFFTEST_FIRST` choose how many from which seed;
//!   `ACCC_DIFFTEST_FEATURES=switch,do_while` (or `all`) adds gated constructs.
//! * A failing program is kept in `target/tmp/difftest-failures/`.
//!
//! The generator: `program.rs` (main, arrays, output) → `region/` (compute
//! regions, data clauses) → `stmt.rs` (loop bodies) → `exprgen.rs` (expressions)
//! → `ops.rs` (UB-free operator forms) over `span.rs` (value ranges, exactness),
//! `ty.rs` (C types), `literal.rs`; `features.rs` gates what accc cannot compile yet.

#[path = "../common/mod.rs"]
mod common;

mod accum;
mod ctx;
mod env;
mod expr;
mod exprgen;
mod features;
mod literal;
mod model;
mod ops;
mod program;
mod region;
mod rng;
mod shape;
mod span;
mod stmt;
mod ty;

use common::{
    accc, check_all, compare_outputs, emu, host_cc, panicked, run, tail, tolerance, Run,
    COMPILE_TIMEOUT,
};
use features::Features;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Programs the CI test checks.
const CI_COUNT: u64 = 40;

/// Seeds whose program fails on the emulated device because of a bug of
/// accc that a GPU would show too: (seed, what the emulator's report
/// says, why). Each must still fail there with that report.
const EMU_KNOWN_FAILURES: &[(u64, &str, &str)] = &[];
/// Programs `write_programs` writes for the gpu bundle.
const BUNDLE_COUNT: u64 = 200;
/// Seeds whose programs once disagreed on a GPU, checked in every run (CI and
/// the bundle) besides the counted ones: the seed, the feature set that gave its
/// program (`Features::parse`; a set's programs stay the same when features are
/// added, see `regression_programs_are_stable`), the FNV-1a hash of the program
/// below its header, and the cause it exposed:
/// * 168 (legacy): an inner `kernels` loop not tightly nested in a gang-vector
///   loop took grid y, so the read-modify-write around it ran once per gang.
///
/// and seeds whose programs raced on the emulated device (`HUNT` features):
/// * 1: a `kernels loop` left sequential with `num_gangs(22)` ran once per gang.
/// * 10: `num_workers(32)` with no worker loop: every worker repeated the
///   worker-single code, racing with the first worker's stores.
/// * 30: a loose `loop worker reduction(max:t)` in a `kernels` gang loop took
///   a grid dimension: each gang of it reduced into its own copy of the gang's
///   private `t`.
/// * 41 (on the GPU): a loop tightly nested in a loose `kernels` loop took grid
///   y after the loose loop was made sequential.
/// * 146: a `loop gang vector reduction(…)` in worker-single code, in a kernel
///   with a worker loop: every worker ran it, racing with the first one's
///   stores (now the first worker runs it; the reduction combines across
///   the workers, which bring the identity).
/// * 170: a scalar assigned at the top of each iteration and read inside a
///   `switch` was left shared (the privatiser gave up at any switch).
/// * 205: `num_workers(16) vector_length(64)`: rows of two warps synchronise
///   on named barriers, of which a block has 15; the 16th row's barrier was
///   none.
/// * 535: a loop inside a sequential outermost `kernels` loop, with code
///   around it, took a grid dimension: the code around ran once per gang.
/// * 815 (on the GPU, NOT FIXED): `o4[i]` gets 222 where plain cc gives
///   2^64-34: `p10 = (short)(signed char)-x` in a `loop worker private(p10)`
///   of `num_workers(16) vector_length(2)` loses its sign on the GPU; the
///   emulator and the host agree with cc, and the same conversion alone
///   compiles to correct PTX. Kept here so the GPU bundle shows it.
/// * 39: two reductions across gangs in a row: thread 0 wrote the second's
///   last-gang flag while other threads still read the first's.
const REGRESSION_SEEDS: &[(u64, &str, u64)] = &[
    (168, "legacy", 0x350e_b75a_cf98_d44a),
    (1, HUNT, 0xf9eb_0b6e_83be_3f03),
    (10, HUNT, 0x4aa4_93e0_ff0f_71d0),
    (30, HUNT, 0x4435_872e_7811_2c2b),
    (39, HUNT, 0x24dd_15be_2538_121a),
    (146, HUNT, 0x36ca_0373_c7ae_574b),
    (170, HUNT, 0xcaf6_dfc4_d0ff_d662),
    (205, HUNT, 0x7d62_25dd_abbe_e525),
    (535, HUNT, 0x1755_41b0_d7dc_f398),
    (815, HUNT, 0x9ef6_8564_4454_885d),
    (41, HUNT, 0x12a4_0992_81c5_6aa1),
];
/// The feature set of the race hunt's first programs (everything the
/// generator had when they were found).
const HUNT: &str = "none do_while switch structs routine local_arrays init_lists multi_dim \
multi_dim_subarrays collapse reductions construct_reductions nested_reductions private_reductions \
worker_loops private_scalars atomics launch_shapes oversized_launch odd_sizes";
/// How long a generated program may run (they take milliseconds).
const RUN_TIMEOUT: Duration = Duration::from_secs(20);

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    Some(
        v.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number")),
    )
}

/// The programs to check, as (seed, features): `ACCC_DIFFTEST_SEED`, or
/// `ACCC_DIFFTEST_COUNT` (default `count`) seeds from `ACCC_DIFFTEST_FIRST`
/// (default 0), with `features()`; and the `REGRESSION_SEEDS`.
fn seeds(count: u64) -> Vec<(u64, Features)> {
    let feat = features();
    if let Some(s) = env_u64("ACCC_DIFFTEST_SEED") {
        return vec![(s, feat)];
    }
    let first = env_u64("ACCC_DIFFTEST_FIRST").unwrap_or(0);
    let count = env_u64("ACCC_DIFFTEST_COUNT").unwrap_or(count);
    let mut seeds: Vec<(u64, Features)> = (first..first + count).map(|s| (s, feat)).collect();
    for &(s, spec, _) in REGRESSION_SEEDS {
        let f = Features::parse(spec).expect("REGRESSION_SEEDS names known features");
        if !seeds.contains(&(s, f)) {
            seeds.push((s, f));
        }
    }
    seeds
}

/// The file name of program `seed` with features `feat` (without `.c`): the
/// seed, and the feature spec when it is not the CI set.
fn program_name(seed: u64, feat: Features) -> String {
    let tag: String = feat
        .spec()
        .split_whitespace()
        .map(|w| w.chars().take(3).collect::<String>())
        .collect::<Vec<_>>()
        .join("");
    if tag.is_empty() {
        format!("difftest_{seed}")
    } else if feat == Features::LEGACY {
        format!("difftest_{seed}_legacy")
    } else {
        format!("difftest_{seed}_{tag}")
    }
}

/// The features of the programs to check: `ACCC_DIFFTEST_FEATURES` (see
/// `Features::parse`), by default what accc compiles today.
fn features() -> Features {
    let spec = std::env::var("ACCC_DIFFTEST_FEATURES").unwrap_or_default();
    Features::parse(&spec).unwrap_or_else(|e| panic!("ACCC_DIFFTEST_FEATURES: {e}"))
}

/// Builds `src` with the host compiler and `flags`, runs it; Err unless both
/// succeed.
fn build_and_run(src: &Path, flags: &[&str], dir: &Path, tag: &str) -> Result<Run, String> {
    let exe = dir.join(tag);
    let mut cc = Command::new(host_cc());
    cc.args(flags).arg(src).arg("-o").arg(&exe).arg("-lm");
    let built = run(cc, dir, &format!("{tag}.build"), COMPILE_TIMEOUT);
    if !built.ok() {
        return Err(format!(
            "`{} {}` failed ({}):\n{}",
            host_cc(),
            flags.join(" "),
            built.describe_status(),
            tail(&built.stderr, 3000)
        ));
    }
    let ran = run(Command::new(&exe), dir, &format!("{tag}.run"), RUN_TIMEOUT);
    if !ran.ok() {
        return Err(format!(
            "the `{}` build exits with {}:\n{}\n{}",
            flags.join(" "),
            ran.describe_status(),
            tail(&ran.stdout, 1500),
            tail(&ran.stderr, 3000)
        ));
    }
    Ok(ran)
}

/// Keeps a failing program where the developer can find it; returns the path.
fn keep(name: &str, text: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("difftest-failures");
    let path = dir.join(name);
    match fs::create_dir_all(&dir).and_then(|()| fs::write(&path, text)) {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(not kept: {e})"),
    }
}

/// Generates program `seed`, builds it with cc and accc, runs both, compares.
fn check_seed(seed: u64, feat: Features) -> Result<(), String> {
    let p = program::generate(seed, feat);
    let name = format!("{}.c", program_name(seed, feat));
    let fail = |msg: String| {
        format!(
            "{msg}\nprogram: {}\nrerun: ACCC_DIFFTEST_SEED={seed}{} cargo test --test difftest",
            keep(&name, &p.text),
            if feat == Features::ACCC {
                String::new()
            } else {
                format!(" ACCC_DIFFTEST_FEATURES='{}'", feat.spec())
            }
        )
    };
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = tmp.path();
    let src = dir.join(&name);
    fs::write(&src, &p.text).map_err(|e| e.to_string())?;
    let tol = tolerance(&p.text)?;

    let want =
        build_and_run(&src, &["-O1", "-w"], dir, "cc").map_err(|e| fail(format!("oracle: {e}")))?;
    let exe = dir.join("accc");
    let mut cmd = accc();
    cmd.arg("-O2")
        .arg("-gpu=emu")
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm");
    let built = run(cmd, dir, "accc.build", COMPILE_TIMEOUT);
    if !built.ok() || panicked(&built.stderr) || !exe.exists() {
        return Err(fail(format!(
            "accc failed ({}):\n{}",
            built.describe_status(),
            tail(&built.stderr, 3000)
        )));
    }
    let mut cmd = Command::new(&exe);
    cmd.env_remove("ACC_DEVICE_TYPE");
    let got = run(cmd, dir, "accc.run", RUN_TIMEOUT);
    if !got.ok() {
        return Err(fail(format!(
            "accc's build exits with {} (the oracle: 0):\n{}",
            got.describe_status(),
            tail(&got.stderr, 2000)
        )));
    }
    compare_outputs(&want.stdout, &got.stdout, tol)
        .map_err(|e| fail(format!("output differs: {e}")))?;
    let expect = emu::Expect {
        status: 0,
        stdout: &want.stdout,
        tol,
        stderr_re: None,
        on_host: false,
    };
    let ran = emu::run_on_emulator(&exe, &[], dir, "accc")?;
    let result = emu::check(&ran, &expect, dir);
    match (EMU_KNOWN_FAILURES.iter().find(|(s, _, _)| *s == seed), result) {
        (None, r) => r.map_err(fail),
        (Some((_, report, _)), Err(e)) if e.contains(report) => Ok(()),
        (Some((_, report, why)), Err(e)) => Err(fail(format!(
            "listed in EMU_KNOWN_FAILURES ({why}) but fails otherwise (not with `{report}`): {e}"
        ))),
        (Some((_, _, why)), Ok(())) => Err(fail(format!(
            "listed in EMU_KNOWN_FAILURES ({why}) but passes on the emulated device now: take it off the list"
        ))),
    }
}

/// `CI_COUNT` generated programs: accc's build (host fallback without a GPU) must
/// print what plain cc's does.
#[test]
fn generated_programs_match_cc() {
    check_all(
        "difftest",
        &seeds(CI_COUNT),
        |&(s, f)| program_name(s, f),
        |&(s, f)| check_seed(s, f),
    );
}

/// The sanitizer flags of the UB check, or why they cannot be used here.
fn sanitizer_flags(dir: &Path) -> Result<Vec<&'static str>, String> {
    let probe = dir.join("probe.c");
    fs::write(
        &probe,
        "#include <stdlib.h>\nint main(void) { free(malloc(4)); return 0; }\n",
    )
    .map_err(|e| e.to_string())?;
    let ub = [
        "-O0",
        "-w",
        "-fsanitize=undefined,float-cast-overflow,float-divide-by-zero",
        "-fno-sanitize-recover=all",
    ];
    build_and_run(&probe, &ub, dir, "probe-ub")?;
    let mut with_asan = ub.to_vec();
    with_asan.push("-fsanitize=address");
    Ok(match build_and_run(&probe, &with_asan, dir, "probe-asan") {
        Ok(_) => with_asan,
        Err(_) => ub.to_vec(),
    })
}

/// Every construct the generator knows (`Features::ALL`, including those accc cannot
/// compile yet) and the CI set give programs that plain cc compiles and runs, that
/// the sanitizers find no undefined behaviour in, and whose output does not depend
/// on the optimisation level.
#[test]
fn generated_c_is_valid_and_ub_free() {
    let probe_dir = tempfile::tempdir().unwrap();
    let sanitize = sanitizer_flags(probe_dir.path());
    if let Err(e) = &sanitize {
        eprintln!(
            "generated_c_is_valid_and_ub_free: SKIPPING the sanitizer check (the sanitizer \
             runtime is missing: {e}); checking plain cc builds only"
        );
    }
    let cases: Vec<(u64, Features)> = (0..16)
        .map(|s| (s, Features::ALL))
        .chain((0..8).map(|s| (1000 + s, Features::ACCC)))
        .collect();
    check_all(
        "ub-check",
        &cases,
        |(s, f)| {
            format!(
                "seed {s} ({})",
                if *f == Features::ALL {
                    "all features"
                } else {
                    "accc features"
                }
            )
        },
        |&(seed, feat)| {
            let p = program::generate(seed, feat);
            let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
            let src = tmp.path().join(format!("difftest_{seed}.c"));
            fs::write(&src, &p.text).map_err(|e| e.to_string())?;
            let keep_it =
                |e: String| format!("{e}\nprogram: {}", keep(&format!("ub_{seed}.c"), &p.text));
            let plain = build_and_run(&src, &["-O1", "-w", "-std=c11"], tmp.path(), "plain")
                .map_err(keep_it)?;
            if let Ok(flags) = &sanitize {
                let checked =
                    build_and_run(&src, flags, tmp.path(), "sanitized").map_err(keep_it)?;
                if checked.stdout != plain.stdout {
                    return Err(keep_it(
                        "the -O0 sanitized build prints something else than the -O1 build".into(),
                    ));
                }
            }
            Ok(())
        },
    );
}

#[test]
fn generator_is_deterministic_and_seeded() {
    for seed in [0, 7, 123_456_789, u64::MAX] {
        let a = program::generate(seed, Features::ACCC);
        let b = program::generate(seed, Features::ACCC);
        assert_eq!(a.text, b.text, "seed {seed} gives two programs");
        assert!(
            a.text.starts_with(&format!("// difftest seed {seed}:")),
            "the header names the seed"
        );
        assert!(a.text.contains(&format!("ACCC_DIFFTEST_SEED={seed}")));
    }
    assert_ne!(
        program::generate(1, Features::ACCC).text,
        program::generate(2, Features::ACCC).text
    );
}

/// A feature that is off is never generated; every feature is generated somewhere
/// when all are on.
#[test]
fn features_gate_generation() {
    let mut seen = Features::NONE;
    for seed in 0..80 {
        let all = program::generate(seed, Features::ALL);
        seen = seen.union(&all.used);
        let accc = program::generate(seed, Features::ACCC);
        assert!(
            accc.used.within(&Features::ACCC),
            "seed {seed}: {:?}",
            accc.used
        );
        let none = program::generate(seed, Features::NONE);
        assert_eq!(none.used, Features::NONE, "seed {seed}");
        for needle in [
            "do {",
            "switch (",
            "struct ",
            "routine",
            "[R][C]",
            "collapse",
            "= {",
            "reduction(",
            "private(",
            "acc atomic",
            "vector_length(1000)",
        ] {
            assert!(
                !none.text.contains(needle),
                "seed {seed} without features has `{needle}`"
            );
        }
    }
    assert_eq!(seen, Features::ALL, "some feature is never generated");
}

/// FNV-1a (64 bits) of a program's text below its three header lines (which
/// name the features it was asked for).
fn program_hash(text: &str) -> u64 {
    let body: String = text.split_inclusive('\n').skip(3).collect();
    body.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The programs of `REGRESSION_SEEDS` are still the ones that disagreed: the
/// generator must give a feature set the same programs when features are added.
/// When a change to how a construct is generated must change them, copy each
/// regression program (the old generator's `write_programs`) into
/// tests/programs/ first, so the case is kept.
#[test]
fn regression_programs_are_stable() {
    for &(seed, spec, hash) in REGRESSION_SEEDS {
        let feat = Features::parse(spec).expect("known features");
        let p = program::generate(seed, feat);
        assert_eq!(
            program_hash(&p.text),
            hash,
            "the program of regression seed {seed} ({spec}) changed"
        );
    }
}

/// Writes `ACCC_DIFFTEST_COUNT` (default 200) programs `difftest_<seed>.c` into
/// `ACCC_DIFFTEST_OUT`, for `scripts/gpu-bundle.sh`.
#[test]
#[ignore = "writes programs for the gpu bundle; needs ACCC_DIFFTEST_OUT=dir"]
fn write_programs() {
    let out = PathBuf::from(
        std::env::var_os("ACCC_DIFFTEST_OUT").expect("ACCC_DIFFTEST_OUT=dir is required"),
    );
    fs::create_dir_all(&out).unwrap_or_else(|e| panic!("cannot create {}: {e}", out.display()));
    let seeds = seeds(BUNDLE_COUNT);
    for &(seed, feat) in &seeds {
        let p = program::generate(seed, feat);
        let path = out.join(format!("{}.c", program_name(seed, feat)));
        fs::write(&path, p.text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    eprintln!("wrote {} programs to {}", seeds.len(), out.display());
}
