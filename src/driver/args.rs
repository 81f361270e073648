//! The command line: cc-compatible flags sorted by the phase that needs them,
//! and accc's own `--` options (parsed with clap).
//!
//! Owns: [`Args`] and [`parse`]. May call: nothing else in accc.

use clap::Parser;
use std::path::PathBuf;

/// accc's own options (everything else on the command line is a cc flag).
#[derive(Parser, Debug, Default)]
#[command(
    name = "accc",
    version,
    about = "An OpenACC compiler for C targeting NVIDIA GPUs",
    disable_help_flag = false
)]
pub struct Own {
    /// Stop after producing this form and write it to -o (or stdout): the
    /// loop IR, LLVM IR for NVPTX, PTX, or the rewritten host C.
    #[arg(long, value_parser = ["ir", "llvm", "ptx", "host-c"])]
    pub emit: Option<String>,
    /// GPU architecture of the embedded cubin and the PTX target.
    #[arg(long = "gpu-arch", default_value = "sm_90")]
    pub gpu_arch: String,
    /// Keep intermediate files (their paths are printed).
    #[arg(long)]
    pub keep: bool,
    /// Print the commands accc runs.
    #[arg(short = 'v')]
    pub verbose: bool,
    /// Print what accc decided for each loop of every compute region (also
    /// -Minfo, -Minfo=accel).
    #[arg(long)]
    pub remarks: bool,
}

/// What a cc-style command line asks for.
#[derive(Debug, Default)]
pub struct Args {
    pub own: Own,
    /// `-o`.
    pub output: Option<PathBuf>,
    /// `-c`: compile only.
    pub compile_only: bool,
    /// `-E`: preprocess only.
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
}

/// Options taking a separate argument.
const WITH_ARG: &[&str] = &[
    "-I", "-D", "-U", "-include", "-o", "-L", "-l", "-x", "-MF", "-MT", "-MQ", "-isystem",
];

/// Parses the command line (without the program name).
pub fn parse(argv: &[String]) -> Result<Args, String> {
    let mut a = Args {
        opt_level: 0,
        ..Args::default()
    };
    let mut own = vec!["accc".to_string()];
    let mut i = 0;
    while i < argv.len() {
        let arg = &argv[i];
        let next = |i: &mut usize| -> Result<String, String> {
            *i += 1;
            argv.get(*i)
                .cloned()
                .ok_or_else(|| format!("missing argument to '{arg}'"))
        };
        if arg.starts_with("--") || arg == "-v" || arg == "-h" {
            own.push(arg.clone());
        } else if WITH_ARG.contains(&arg.as_str()) {
            let v = next(&mut i)?;
            match arg.as_str() {
                "-o" => a.output = Some(PathBuf::from(v)),
                "-I" | "-D" | "-U" | "-include" | "-isystem" => {
                    a.cpp_flags.push(arg.clone());
                    a.cpp_flags.push(v);
                }
                "-L" | "-l" => a.link.push(format!("{arg}{v}")),
                _ => {
                    a.cc_flags.push(arg.clone());
                    a.cc_flags.push(v);
                }
            }
        } else if let Some(o) = arg.strip_prefix("-o") {
            a.output = Some(PathBuf::from(o));
        } else if arg == "-c" {
            a.compile_only = true;
        } else if arg == "-E" {
            a.preprocess_only = true;
        } else if arg.starts_with("-I") || arg.starts_with("-D") || arg.starts_with("-U") {
            a.cpp_flags.push(arg.clone());
        } else if arg.starts_with("-l")
            || arg.starts_with("-L")
            || arg.starts_with("-Wl,")
            || arg == "-shared"
            || arg == "-static"
        {
            a.link.push(arg.clone());
        } else if let Some(o) = arg.strip_prefix("-O") {
            a.opt_level = match o {
                "0" => 0,
                "1" => 1,
                "" | "2" | "s" | "z" | "g" => 2,
                _ => 3,
            };
            a.cc_flags.push(arg.clone());
        } else if arg == "-Minfo"
            || arg
                .strip_prefix("-Minfo=")
                .is_some_and(|v| v.split(',').any(|k| matches!(k, "accel" | "all" | "par")))
        {
            own.push("--remarks".into());
        } else if matches!(arg.as_str(), "-acc" | "-fopenacc" | "-fast")
            || arg.starts_with("-acc=")
            || arg.starts_with("-ta=")
            || arg.starts_with("-gpu=")
            || arg.starts_with("-Minfo=")
            || arg.starts_with("-foffload")
        {
            // OpenACC switches of other compilers: accc always compiles OpenACC.
        } else if arg == "-pthread" {
            a.cc_flags.push(arg.clone());
            a.link.push(arg.clone());
        } else if arg.starts_with('-') && arg.len() > 1 {
            a.cc_flags.push(arg.clone());
        } else if arg.ends_with(".c") {
            a.sources.push(PathBuf::from(arg));
        } else {
            a.link.push(arg.clone());
        }
        i += 1;
    }
    a.own = Own::try_parse_from(&own).map_err(|e| e.to_string())?;
    Ok(a)
}
