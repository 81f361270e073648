//! The command line: cc-compatible flags sorted by the phase that needs them,
//! the OpenACC switches of other compilers, and accc's own `--` options
//! (parsed with clap).
//!
//! Owns: [`Args`], [`parse`] and the text of `--help` and `--version`.
//! May call: nothing else in accc but the [`FastMath`] type of `codegen`.

pub use crate::codegen::fastmath::FastMath;
use clap::Parser;
use std::path::PathBuf;

/// What `--help` says after accc's own options: every cc flag a Makefile
/// may pass, and the switches of other OpenACC compilers.
const CC_HELP: &str = "\
Inputs, as cc: .c sources (or any file after -x c); .o, .a, .so and other files go to the link.
With --emit, a .ir file (the loop IR's text form, as --emit=ir or ir-unscheduled prints it)
is read, validated and taken through analysis, schedule and the back ends instead.

C compiler flags (as cc):
  -c                  compile to an object file (with -o FILE, or SOURCE.o)
  -S                  compile to assembly: SOURCE.s (host) and SOURCE.ptx (device code)
  -E                  preprocess only (-M, -MM: print make dependencies)
  -o FILE             output file (a.out when linking)
  -I DIR, -D NAME[=V], -U NAME, -include FILE, -isystem DIR    preprocessor
  -MD, -MMD, -MF FILE, -MT TARGET, -MQ TARGET, -MP             dependency files for make
  -L DIR, -l LIB, -Wl,OPT, -shared, -static, -pthread           link
  -O0 -O1 -O2 -O3 -Os -Oz -Og -Ofast   optimisation (host and device code)
  -g, -std=STD, -W..., -w, -f..., -m..., -Wa,OPT, -x LANG, -fPIC    given to the host compiler
  -fdiagnostics-color[=always|never|auto]   colour in accc's diagnostics (auto: on a terminal)
  -ffp-contract=off|on|fast   floating-point contraction: off also turns it off in device
                      code (on and fast: on, the default there); given to the host compiler too
  -ffast-math, -fno-fast-math  fast math for the host compiler and, as -gpu=fastmath, in
                      device code (-Ofast too); -fno-fast-math: precise, the default
  -v                  print the commands accc runs
  Other flags are given to the host compiler unchanged.

OpenACC switches of other compilers (accepted):
  -fopenacc, -acc, -acc=gpu      compile OpenACC for the GPU (always on)
  -acc=host, -ta=host            compile for the host only: compute constructs run on
                                 the host, on one thread (their host fallback)
  -acc=multicore, -ta=multicore  compile the kernels for the host's cores: gangs run on
                                 host threads (ACC_NUM_CORES of them, else every core),
                                 worker and vector loops sequentially in each gang
  -gpu=ccXY[,…], -ta=tesla:ccXY[,…]     GPU architecture sm_XY (as --gpu-arch)
  -gpu=emu                       also embed SIMT bytecode for the emulated device (run with
                                 PTXRT_PLUGIN=.../libptxrt-emu.so ACC_DEVICE_TYPE=nvidia)
  -gpu=nvcc                      compile the kernels with nvcc (as --backend=cuda)
  -gpu=nofma, -Mnofma            no floating-point contraction in device code: a * b + c is
                                 rounded twice (-gpu=fma, -Mfma: fused into one fma, the default,
                                 as nvcc and nvc do; the last of these switches wins)
  -gpu=lineinfo, -lineinfo       source line numbers in the (optimised) device code, for
                                 compute-sanitizer, cuda-gdb and Nsight (-g gives them too)
  -gpu=fastmath                  fast single-precision math in device code only (nvcc's
                                 -use_fast_math): approximate division, reciprocal, sqrtf and
                                 1/sqrtf, denormals flushed to zero, __expf-style expf, logf,
                                 powf, sinf, cosf, tanf. double stays IEEE
  -Mfprelaxed[=div,recip,sqrt,rsqrt]  approximate single-precision division, reciprocal, sqrtf,
                                 1/sqrtf (all four, or those named) in device code only;
                                 -Mnofprelaxed: none (the last of the fast-math switches wins)
  -mllvm OPT                     an option for LLVM's code generator of the device code, as
                                 clang's (e.g. -mllvm -unroll-threshold=600); not for -gpu=nvcc. LLVM's
                                 C API ignores an option it does not know, silently
  -Minfo, -Minfo=accel           remarks: data movement, loop schedules (as --remarks)
  -fast                          -O3
  -foffload=…                    ignored

Environment: ACCC_HOST_CC (host compiler, default cc), ACCC_PTXAS, ACCC_LIBDEVICE,
ACCC_INCLUDE, ACCC_NVCC (nvcc for --backend=cuda; else nvcc on PATH); at run time ACC_DEVICE_TYPE, ACC_DEVICE_NUM, PTXRT_NOTIFY=1 (one line per
launch and transfer), PTXRT_TIME=1 (a profile per construct at exit), PTXRT_DEBUG=1
(or nvc's NV_ACC_NOTIFY=1|2|3, NV_ACC_TIME=1, NV_ACC_DEBUG=1).";

/// accc's own options (everything else on the command line is a cc flag).
#[derive(Parser, Debug, Default)]
#[command(
    name = "accc",
    override_usage = "accc [options] file...",
    about = "An OpenACC 3.3 compiler for C targeting NVIDIA GPUs: a drop-in cc",
    after_help = CC_HELP,
    disable_version_flag = true
)]
pub struct Own {
    /// Stop after producing this form and write it to -o (or stdout): the
    /// loop IR (scheduled; ir-unscheduled: as the front end lowers it, the
    /// input of the schedule passes), the analysis side table (info:
    /// parameters' read/write access, loops' contiguity and reuse), LLVM IR
    /// for NVPTX, PTX, the emulated device's SIMT bytecode (text form),
    /// the rewritten host C, or the CUDA C of the nvcc path.
    #[arg(long, value_parser = ["ir", "ir-unscheduled", "info", "llvm", "ptx", "simt", "host-c", "cuda"])]
    pub emit: Option<String>,
    /// What compiles the kernels: LLVM's NVPTX back end (the default), or
    /// nvcc from the CUDA C of the same IR (also -gpu=nvcc; nvcc is
    /// $ACCC_NVCC, else nvcc on PATH).
    #[arg(long, value_parser = ["llvm", "cuda"])]
    pub backend: Option<String>,
    /// GPU architecture of the embedded cubin and the PTX target.
    #[arg(long = "gpu-arch", default_value = DEFAULT_ARCH)]
    pub gpu_arch: String,
    /// Keep intermediate files (their paths are printed).
    #[arg(long)]
    pub keep: bool,
    /// Print the commands accc runs.
    #[arg(short = 'v')]
    pub verbose: bool,
    /// Print what accc decided for each compute region: data movement,
    /// loop schedules, loops not parallelised and why (also -Minfo,
    /// -Minfo=accel).
    #[arg(long)]
    pub remarks: bool,
    /// Print accc's version, its LLVM and its default GPU architecture.
    #[arg(long)]
    pub version: bool,
}

/// The GPU architecture when none is asked for.
pub const DEFAULT_ARCH: &str = "sm_90";

/// What compiles the kernels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// LLVM's NVPTX back end (`codegen::nvptx`).
    #[default]
    Llvm,
    /// nvcc, from the CUDA C of `codegen::cuda` (`--backend=cuda`,
    /// `-gpu=nvcc`).
    Cuda,
}

/// Where compute constructs run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// On the GPU (host fallback when there is none).
    #[default]
    Gpu,
    /// Only on the host, one thread (`-acc=host`, `-ta=host`).
    Host,
    /// On the host's cores (`-acc=multicore`, `-ta=multicore`): the
    /// kernels compiled as host code for `ir::Target::Host`.
    Multicore,
}

/// Colour in diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Colour {
    /// On a terminal (and without `NO_COLOR`).
    #[default]
    Auto,
    Always,
    Never,
}

/// The make-dependency flags (`-M…`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deps {
    /// `-MD` or `-MMD` (`-MMD`: without system headers): a `.d` file as a
    /// side effect of compiling.
    pub side_file: Option<&'static str>,
    /// `-M` or `-MM`: the dependencies are the output (implies -E).
    pub only: Option<&'static str>,
    /// `-MF FILE`.
    pub file: Option<String>,
    /// `-MT`/`-MQ` targets, as flag and value.
    pub targets: Vec<(String, String)>,
    /// `-MP`, `-MG`: given as they are.
    pub extra: Vec<String>,
}

/// What a cc-style command line asks for.
#[derive(Debug, Default)]
pub struct Args {
    pub own: Own,
    /// `-o`.
    pub output: Option<PathBuf>,
    /// `-c`: compile only.
    pub compile_only: bool,
    /// `-S`: compile to assembly.
    pub assemble_only: bool,
    /// `-E` (or `-M`/`-MM`): preprocess only.
    pub preprocess_only: bool,
    /// C sources to compile.
    pub sources: Vec<PathBuf>,
    /// Flags for the preprocessor (`-I -D -U -include`).
    pub cpp_flags: Vec<String>,
    /// Flags for the host compiler (`-O -g -std= -W -f -m ...`); also given
    /// to the preprocessor since they change predefined macros.
    pub cc_flags: Vec<String>,
    /// Link inputs and flags, in command-line order (objects, archives,
    /// `-l`, `-L`, `-Wl,`).
    pub link: Vec<String>,
    /// Optimisation level for device code (0..3).
    pub opt_level: u8,
    pub deps: Deps,
    pub target: Target,
    /// `-gpu=emu`: embed SIMT bytecode for the emulated device too.
    pub emu: bool,
    /// `--backend` (or `-gpu=nvcc`).
    pub backend: Backend,
    pub colour: Colour,
    /// `-w`: no warnings.
    pub no_warnings: bool,
    /// `-mllvm OPT`: options for LLVM's code generator of device code (as
    /// clang's), in command-line order.
    pub llvm_options: Vec<String>,
    /// Floating-point contraction in the device code (`a * b + c` as one
    /// fused multiply-add, as nvcc and nvc have it): on unless `-Mnofma`,
    /// `-gpu=nofma` or `-ffp-contract=off` (`-Mfma`, `-gpu=fma`,
    /// `-ffp-contract=on|fast` turn it back on; the last one wins).
    pub fma: bool,
    /// Relaxed single-precision math in the device code: all of it with
    /// `-gpu=fastmath`, `-ffast-math` and `-Ofast` (`-fno-fast-math`:
    /// none); `-Mfprelaxed[=div,recip,sqrt,rsqrt]` sets the division,
    /// reciprocal and square-root parts (`-Mnofprelaxed`: off). Each switch
    /// sets the parts it names, in command-line order. The `-f` switches
    /// and `-Ofast` are also the host compiler's.
    pub fast_math: FastMath,
    /// `-gpu=lineinfo`, `-lineinfo` (see [`Args::line_info`]).
    pub lineinfo: bool,
}

/// Options taking a separate argument.
const WITH_ARG: &[&str] = &[
    "-I",
    "-D",
    "-U",
    "-include",
    "-o",
    "-L",
    "-l",
    "-x",
    "-MF",
    "-MT",
    "-MQ",
    "-isystem",
    "-imacros",
    "-iquote",
    "-idirafter",
    "-mllvm",
];

/// The `sm_XY` of a `ccXY` in a comma list (`-gpu=cc90,fastmath`).
fn cc_arch(list: &str) -> Option<String> {
    list.split([',', ':'])
        .filter_map(|o| o.strip_prefix("cc"))
        .find(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        .map(|v| format!("sm_{v}"))
}

/// Whether `arg` is one of accc's own `--name` options that takes a value,
/// spelled without `=` (its value is then the next argument, as clap and
/// `--help` have it).
fn own_takes_value(arg: &str) -> bool {
    use clap::CommandFactory;
    let Some(name) = arg.strip_prefix("--").filter(|n| !n.contains('=')) else {
        return false;
    };
    Own::command()
        .get_arguments()
        .any(|a| a.get_long() == Some(name) && a.get_action().takes_values())
}

impl Args {
    /// Line numbers in the device code: `-gpu=lineinfo`, `-lineinfo`, or
    /// `-g` (any level but `-g0`; the host compiler's debug information).
    pub fn line_info(&self) -> bool {
        self.lineinfo
            || self
                .cc_flags
                .iter()
                .rev()
                .find(|f| f.starts_with("-g") && !f.starts_with("-gpu"))
                .is_some_and(|f| f != "-g0")
    }
}

/// The parts of [`FastMath`] that `-Mfprelaxed` sets.
const RELAXED: [&str; 4] = ["div", "recip", "sqrt", "rsqrt"];

/// Turns `-Mfprelaxed` part `part` of `f` on or off; false when there is
/// no such part.
fn relax(f: &mut FastMath, part: &str, on: bool) -> bool {
    let field = match part {
        "div" => &mut f.div,
        "recip" => &mut f.recip,
        "sqrt" => &mut f.sqrt,
        "rsqrt" => &mut f.rsqrt,
        _ => return false,
    };
    *field = on;
    true
}

/// Parses the command line (without the program name).
pub fn parse(argv: &[String]) -> Result<Args, String> {
    let mut a = Args {
        opt_level: 0,
        fma: true,
        ..Args::default()
    };
    let mut own = vec!["accc".to_string()];
    let mut arch: Option<String> = None;
    // `-x c` makes the following files C sources; `-x none` undoes it.
    let mut lang_c = false;
    let mut i = 0;
    while i < argv.len() {
        let arg = &argv[i];
        let next = |i: &mut usize| -> Result<String, String> {
            *i += 1;
            argv.get(*i)
                .cloned()
                .ok_or_else(|| format!("missing argument to '{arg}'"))
        };
        if own_takes_value(arg) {
            // `--emit ir` as well as `--emit=ir` (clap reports a missing value).
            own.push(arg.clone());
            if let Some(v) = argv.get(i + 1) {
                own.push(v.clone());
                i += 1;
            }
        } else if arg.starts_with("--") || arg == "-v" || arg == "-h" {
            own.push(arg.clone());
        } else if WITH_ARG.contains(&arg.as_str()) {
            let v = next(&mut i)?;
            match arg.as_str() {
                "-o" => a.output = Some(PathBuf::from(v)),
                "-I" | "-D" | "-U" | "-include" | "-isystem" | "-imacros" | "-iquote"
                | "-idirafter" => {
                    a.cpp_flags.push(arg.clone());
                    a.cpp_flags.push(v);
                }
                "-L" | "-l" => a.link.push(format!("{arg}{v}")),
                "-MF" => a.deps.file = Some(v),
                "-mllvm" => a.llvm_options.push(v),
                "-MT" | "-MQ" => a.deps.targets.push((arg.clone(), v)),
                "-x" => match v.as_str() {
                    "c" | "c-header" | "cpp-output" => lang_c = true,
                    "none" => lang_c = false,
                    other => {
                        return Err(format!(
                            "language '{other}' is not supported (accc compiles C)"
                        ))
                    }
                },
                _ => {
                    a.cc_flags.push(arg.clone());
                    a.cc_flags.push(v);
                }
            }
        } else if let Some(o) = arg.strip_prefix("-o") {
            a.output = Some(PathBuf::from(o));
        } else if arg == "-c" {
            a.compile_only = true;
        } else if arg == "-S" {
            a.assemble_only = true;
        } else if arg == "-E" {
            a.preprocess_only = true;
        } else if arg == "-w" {
            a.no_warnings = true;
            a.cc_flags.push(arg.clone());
        } else if matches!(arg.as_str(), "-MD" | "-MMD") {
            a.deps.side_file = Some(if arg == "-MD" { "-MD" } else { "-MMD" });
        } else if matches!(arg.as_str(), "-M" | "-MM") {
            a.deps.only = Some(if arg == "-M" { "-M" } else { "-MM" });
            a.preprocess_only = true;
        } else if matches!(arg.as_str(), "-MP" | "-MG") {
            a.deps.extra.push(arg.clone());
        } else if let Some(f) = arg.strip_prefix("-MF") {
            a.deps.file = Some(f.to_string());
        } else if let Some(t) = arg.strip_prefix("-MT").or_else(|| arg.strip_prefix("-MQ")) {
            a.deps.targets.push((arg[..3].to_string(), t.to_string()));
        } else if let Some(l) = arg.strip_prefix("-x") {
            lang_c = matches!(l, "c" | "c-header" | "cpp-output");
        } else if arg.starts_with("-I") || arg.starts_with("-D") || arg.starts_with("-U") {
            a.cpp_flags.push(arg.clone());
        } else if arg == "-lineinfo" {
            a.lineinfo = true;
        } else if arg.starts_with("-l")
            || arg.starts_with("-L")
            || arg.starts_with("-Wl,")
            || arg == "-shared"
            || arg == "-static"
            || arg == "-rdynamic"
        {
            a.link.push(arg.clone());
        } else if let Some(o) = arg.strip_prefix("-O") {
            a.opt_level = match o {
                "0" => 0,
                "1" | "g" => 1,
                "" | "2" | "s" | "z" => 2,
                _ => 3,
            };
            // -Ofast is -O3 -ffast-math (gcc, clang).
            if o == "fast" {
                a.fast_math = FastMath::ALL;
            }
            a.cc_flags.push(arg.clone());
        } else if arg == "-ffast-math" || arg == "-fno-fast-math" {
            a.fast_math = if arg == "-ffast-math" {
                FastMath::ALL
            } else {
                FastMath::default()
            };
            // The host compiler takes it too, for the host code.
            a.cc_flags.push(arg.clone());
        } else if arg == "-Mfprelaxed" || arg == "-Mnofprelaxed" {
            for part in RELAXED {
                relax(&mut a.fast_math, part, arg == "-Mfprelaxed");
            }
        } else if let Some(list) = arg.strip_prefix("-Mfprelaxed=") {
            for part in RELAXED {
                relax(&mut a.fast_math, part, false);
            }
            for part in list.split(',') {
                if !relax(&mut a.fast_math, part, true) {
                    return Err(format!(
                        "unknown relaxation '{part}' in '{arg}' (expected div, recip, sqrt or rsqrt, separated by commas)"
                    ));
                }
            }
        } else if let Some(mode) = arg.strip_prefix("-ffp-contract=") {
            a.fma = match mode {
                "off" => false,
                "on" | "fast" => true,
                _ => {
                    return Err(format!(
                        "unknown floating-point contraction mode '{mode}' in '{arg}' (expected off, on or fast)"
                    ))
                }
            };
            // The host compiler takes it too, for the host code.
            a.cc_flags.push(arg.clone());
        } else if arg == "-Mfma" || arg == "-Mnofma" {
            a.fma = arg == "-Mfma";
        } else if arg == "-fast" {
            a.opt_level = 3;
            a.cc_flags.push("-O3".into());
        } else if arg == "-Minfo"
            || arg
                .strip_prefix("-Minfo=")
                .is_some_and(|v| v.split(',').any(|k| matches!(k, "accel" | "all" | "par")))
        {
            own.push("--remarks".into());
        } else if let Some(t) = arg
            .strip_prefix("-acc=")
            .or_else(|| arg.strip_prefix("-ta="))
        {
            for opt in t.split(',') {
                match opt.split(':').next().unwrap_or("") {
                    "host" => a.target = Target::Host,
                    "multicore" => a.target = Target::Multicore,
                    "gpu" | "tesla" | "nvidia" => a.target = Target::Gpu,
                    _ => {}
                }
            }
            if let Some(s) = cc_arch(t) {
                arch = Some(s);
            }
        } else if let Some(g) = arg.strip_prefix("-gpu=") {
            if let Some(s) = cc_arch(g) {
                arch = Some(s);
            }
            if g.split(',').any(|o| o == "emu") {
                a.emu = true;
            }
            if g.split(',').any(|o| o == "nvcc") {
                a.backend = Backend::Cuda;
            }
            if let Some(o) = g.split(',').rfind(|o| matches!(*o, "fma" | "nofma")) {
                a.fma = o == "fma";
            }
            if g.split(',').any(|o| o == "fastmath") {
                a.fast_math = FastMath::ALL;
            }
            a.lineinfo |= g.split(',').any(|o| o == "lineinfo");
        } else if arg == "-fdiagnostics-color" || arg == "-fdiagnostics-color=always" {
            a.colour = Colour::Always;
            a.cc_flags.push(arg.clone());
        } else if arg == "-fno-diagnostics-color" || arg == "-fdiagnostics-color=never" {
            a.colour = Colour::Never;
            a.cc_flags.push(arg.clone());
        } else if arg == "-fdiagnostics-color=auto" {
            a.colour = Colour::Auto;
        } else if matches!(arg.as_str(), "-acc" | "-fopenacc")
            || arg.starts_with("-Minfo=")
            || arg.starts_with("-foffload")
            || arg.starts_with("-fopenacc-dim")
        {
            // OpenACC switches of other compilers: accc always compiles OpenACC.
        } else if arg == "-pthread" {
            a.cc_flags.push(arg.clone());
            a.link.push(arg.clone());
        } else if arg.starts_with('-') && arg.len() > 1 {
            a.cc_flags.push(arg.clone());
        } else if lang_c || arg.ends_with(".c") || arg.ends_with(".ir") {
            a.sources.push(PathBuf::from(arg));
        } else {
            a.link.push(arg.clone());
        }
        i += 1;
    }
    a.own = Own::try_parse_from(&own).map_err(|e| e.to_string())?;
    // --backend wins over -gpu=nvcc.
    match a.own.backend.as_deref() {
        Some("cuda") => a.backend = Backend::Cuda,
        Some(_) => a.backend = Backend::Llvm,
        None => {}
    }
    if let Some(s) = arch {
        if !own.iter().any(|o| o.starts_with("--gpu-arch")) {
            a.own.gpu_arch = s;
        }
    }
    Ok(a)
}

/// The text of `--version`: accc's version, the OpenACC version, the LLVM
/// the device code goes through, and the default GPU architecture.
pub fn version_text(llvm: (u32, u32, u32), openacc: u32) -> String {
    format!(
        "accc {} (OpenACC 3.3, _OPENACC={openacc})\nLLVM {}.{}.{} (NVPTX back end)\ndefault GPU architecture: {DEFAULT_ARCH}\n",
        env!("CARGO_PKG_VERSION"),
        llvm.0,
        llvm.1,
        llvm.2
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Args {
        let v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(&v).unwrap()
    }

    #[test]
    fn inputs_go_where_cc_sends_them() {
        let a = p(&[
            "-O2",
            "x.c",
            "y.o",
            "libz.a",
            "-lm",
            "-L/l",
            "z.so",
            "-Wl,-rpath,/r",
        ]);
        assert_eq!(a.sources, vec![PathBuf::from("x.c")]);
        assert_eq!(
            a.link,
            ["y.o", "libz.a", "-lm", "-L/l", "z.so", "-Wl,-rpath,/r"]
        );
        assert_eq!(a.opt_level, 2);
        let a = p(&["-x", "c", "prog.src", "-x", "none", "other.src"]);
        assert_eq!(a.sources, vec![PathBuf::from("prog.src")]);
        assert_eq!(a.link, ["other.src"]);
        assert!(parse(&["-x".into(), "c++".into(), "a.cc".into()]).is_err());
    }

    #[test]
    fn dependency_flags() {
        let a = p(&["-c", "-MD", "-MF", "x.d", "-MT", "obj/x.o", "-MP", "x.c"]);
        assert_eq!(a.deps.side_file, Some("-MD"));
        assert_eq!(a.deps.file.as_deref(), Some("x.d"));
        assert_eq!(a.deps.targets, vec![("-MT".into(), "obj/x.o".into())]);
        assert_eq!(a.deps.extra, ["-MP"]);
        assert!(a.cc_flags.is_empty());
        let a = p(&["-MM", "-MFdeps", "x.c"]);
        assert!(a.preprocess_only);
        assert_eq!(a.deps.only, Some("-MM"));
        assert_eq!(a.deps.file.as_deref(), Some("deps"));
    }

    #[test]
    fn other_compilers_switches() {
        let a = p(&[
            "-acc=gpu",
            "-gpu=cc80,fastmath",
            "-Minfo=accel",
            "-fast",
            "x.c",
        ]);
        assert_eq!(a.own.gpu_arch, "sm_80");
        assert!(!a.emu);
        let e = p(&["-gpu=emu", "x.c"]);
        assert!(e.emu);
        assert_eq!(e.own.gpu_arch, DEFAULT_ARCH);
        let e = p(&["-gpu=cc80,emu", "--emit=simt", "x.c"]);
        assert!(e.emu);
        assert_eq!(e.own.gpu_arch, "sm_80");
        assert_eq!(e.own.emit.as_deref(), Some("simt"));
        assert!(a.own.remarks);
        assert_eq!(a.opt_level, 3);
        assert_eq!(a.target, Target::Gpu);
        let a = p(&["-ta=tesla:cc70", "x.c"]);
        assert_eq!(a.own.gpu_arch, "sm_70");
        assert_eq!(p(&["-acc=host", "x.c"]).target, Target::Host);
        assert_eq!(p(&["-acc=multicore", "x.c"]).target, Target::Multicore);
        assert_eq!(p(&["-ta=multicore", "x.c"]).target, Target::Multicore);
        assert_eq!(p(&["-fopenacc", "-acc", "x.c"]).own.gpu_arch, DEFAULT_ARCH);
        // --gpu-arch wins over -gpu=.
        assert_eq!(
            p(&["-gpu=cc80", "--gpu-arch=sm_90a", "x.c"]).own.gpu_arch,
            "sm_90a"
        );
        let a = p(&["-mcmodel=medium", "-fPIC", "-std=c99", "-Wall", "-w", "x.c"]);
        assert_eq!(
            a.cc_flags,
            ["-mcmodel=medium", "-fPIC", "-std=c99", "-Wall", "-w"]
        );
        assert!(a.no_warnings);
    }

    #[test]
    fn mllvm_options_keep_their_order() {
        let a = p(&[
            "-mllvm",
            "-unroll-threshold=600",
            "x.c",
            "-mllvm",
            "-unroll-runtime=false",
        ]);
        assert_eq!(
            a.llvm_options,
            ["-unroll-threshold=600", "-unroll-runtime=false"]
        );
        assert!(
            a.cc_flags.is_empty(),
            "not for the host compiler: {:?}",
            a.cc_flags
        );
    }

    #[test]
    fn backends() {
        assert_eq!(p(&["x.c"]).backend, Backend::Llvm);
        assert_eq!(p(&["--backend=cuda", "x.c"]).backend, Backend::Cuda);
        assert_eq!(p(&["--backend", "cuda", "x.c"]).backend, Backend::Cuda);
        let a = p(&["-gpu=cc80,nvcc", "x.c"]);
        assert_eq!(
            (a.backend, a.own.gpu_arch.as_str()),
            (Backend::Cuda, "sm_80")
        );
        assert_eq!(
            p(&["-gpu=nvcc", "--backend=llvm", "x.c"]).backend,
            Backend::Llvm
        );
        assert!(parse(&["--backend=gcc".into(), "x.c".into()]).is_err());
        assert_eq!(p(&["--emit=cuda", "x.c"]).own.emit.as_deref(), Some("cuda"));
    }

    #[test]
    fn own_values_with_or_without_equals() {
        for emit in ["ir", "ir-unscheduled", "llvm", "ptx", "host-c"] {
            let joined = format!("--emit={emit}");
            for args in [vec!["--emit", emit, "x.c"], vec![joined.as_str(), "x.c"]] {
                let a = p(&args);
                assert_eq!(a.own.emit.as_deref(), Some(emit), "{args:?}");
                assert_eq!(a.sources, vec![PathBuf::from("x.c")], "{args:?}");
                assert!(a.link.is_empty(), "{args:?}");
            }
        }
        let a = p(&["--gpu-arch", "sm_80", "-c", "x.c"]);
        assert_eq!(a.own.gpu_arch, "sm_80");
        assert!(a.compile_only);
        // Flags without a value take none.
        let a = p(&["--keep", "x.c", "--remarks"]);
        assert!(a.own.keep && a.own.remarks);
        assert_eq!(a.sources, vec![PathBuf::from("x.c")]);
        // A bad or missing value is clap's error.
        assert!(parse(&["--emit".into(), "cubin".into(), "x.c".into()]).is_err());
        assert!(parse(&["x.c".into(), "--emit".into()]).is_err());
    }

    #[test]
    fn fma_switches_last_one_wins() {
        assert!(p(&["x.c"]).fma);
        for off in [
            "-Mnofma",
            "-gpu=nofma",
            "-gpu=cc80,nofma",
            "-ffp-contract=off",
        ] {
            assert!(!p(&[off, "x.c"]).fma, "{off}");
        }
        for on in [
            "-Mfma",
            "-gpu=fma",
            "-ffp-contract=on",
            "-ffp-contract=fast",
        ] {
            assert!(p(&["-Mnofma", on, "x.c"]).fma, "{on}");
        }
        assert!(!p(&["-gpu=fma,nofma", "x.c"]).fma);
        assert!(!p(&["-Mfma", "-gpu=emu", "-ffp-contract=off", "x.c"]).fma);
        // -ffp-contract= is the host compiler's too; -M[no]fma is not.
        let a = p(&["-ffp-contract=off", "-Mfma", "x.c"]);
        assert_eq!(a.cc_flags, ["-ffp-contract=off"]);
        assert!(a.fma);
        let e = parse(&["-ffp-contract=maybe".into(), "x.c".into()]).unwrap_err();
        assert!(
            e.contains("'maybe'") && e.contains("off, on or fast"),
            "{e}"
        );
    }

    #[test]
    fn fast_math_switches_last_one_wins() {
        let relaxed = FastMath {
            div: true,
            recip: true,
            sqrt: true,
            rsqrt: true,
            ..FastMath::default()
        };
        assert_eq!(p(&["x.c"]).fast_math, FastMath::default());
        assert!(!p(&["-O3", "-fast", "x.c"]).fast_math.any());
        for all in [
            "-gpu=fastmath",
            "-gpu=cc80,fastmath",
            "-ffast-math",
            "-Ofast",
        ] {
            assert_eq!(p(&[all, "x.c"]).fast_math, FastMath::ALL, "{all}");
            // The last one wins.
            assert!(!p(&[all, "-fno-fast-math", "x.c"]).fast_math.any(), "{all}");
            assert_eq!(
                p(&["-fno-fast-math", all, "x.c"]).fast_math,
                FastMath::ALL,
                "{all}"
            );
        }
        assert_eq!(p(&["-Mfprelaxed", "x.c"]).fast_math, relaxed);
        assert!(!p(&["-Mfprelaxed", "-Mnofprelaxed", "x.c"]).fast_math.any());
        // -Mfprelaxed sets its four parts only; -gpu=fastmath's others stay.
        let a = p(&["-gpu=fastmath", "-Mnofprelaxed", "x.c"]).fast_math;
        assert_eq!(
            a,
            FastMath {
                ftz: true,
                funcs: true,
                ..FastMath::default()
            }
        );
        assert_eq!(
            p(&["-Mfprelaxed=sqrt,recip", "x.c"]).fast_math,
            FastMath {
                sqrt: true,
                recip: true,
                ..FastMath::default()
            }
        );
        // A list says exactly which of the four: the others go off.
        assert_eq!(
            p(&["-Mfprelaxed", "-Mfprelaxed=rsqrt", "x.c"]).fast_math,
            FastMath {
                rsqrt: true,
                ..FastMath::default()
            }
        );
        assert_eq!(
            p(&["-Mfprelaxed=div", "-gpu=fastmath", "x.c"]).fast_math,
            FastMath::ALL
        );
        // The -f switches and -Ofast are the host compiler's too; the
        // device-only ones are not.
        let a = p(&[
            "-ffast-math",
            "-gpu=fastmath",
            "-Mfprelaxed=div",
            "-fno-fast-math",
            "x.c",
        ]);
        assert_eq!(a.cc_flags, ["-ffast-math", "-fno-fast-math"]);
        assert!(!a.fast_math.any());
        assert_eq!(p(&["-Ofast", "x.c"]).cc_flags, ["-Ofast"]);
        for bad in ["-Mfprelaxed=order", "-Mfprelaxed=div,", "-Mfprelaxed="] {
            let e = parse(&[bad.into(), "x.c".into()]).unwrap_err();
            assert!(
                e.contains(&format!("in '{bad}'")) && e.contains("div, recip, sqrt or rsqrt"),
                "{e}"
            );
        }
        let e = parse(&["-Mfprelaxed=order".into(), "x.c".into()]).unwrap_err();
        assert!(e.starts_with("unknown relaxation 'order'"), "{e}");
    }

    #[test]
    fn colour_and_version() {
        assert_eq!(p(&["-fdiagnostics-color", "x.c"]).colour, Colour::Always);
        assert_eq!(p(&["-fno-diagnostics-color", "x.c"]).colour, Colour::Never);
        assert_eq!(p(&["x.c"]).colour, Colour::Auto);
        assert!(p(&["--version"]).own.version);
        let v = version_text((22, 1, 0), 202211);
        assert!(v.contains("LLVM 22.1.0") && v.contains("sm_90") && v.contains("202211"));
    }
}
