//! The driver: a drop-in `cc`. Runs the phases for each source (preprocess
//! with the host compiler, translate, analyse, schedule, NVPTX codegen and
//! ptxas — or with `--backend=cuda` CUDA C and nvcc; with `-acc=multicore`
//! the kernels' host C (`multicore.rs`) —, host rewrite + embed, host
//! compile) and links; with `--emit`, also
//! takes an IR file (`irfile.rs`); the remarks (`-Minfo`) are put in
//! order and printed by `remarks.rs`.
//!
//! Owns: phase order, temporary files, the commands run and exit codes.
//! May call: every stage of accc.

mod args;
mod irfile;
mod multicore;
mod remarks;
mod tools;

use crate::codegen::{cuda, embed, host, nvptx, simt};
use crate::diag::Diagnostics;
use crate::frontend;
use anyhow::{anyhow, bail, Context, Result};
use args::{Args, Backend, Colour, Target};
use remarks::{decide, print_remarks, with_privates};
use std::path::{Path, PathBuf};
use std::process::Command;
use tools::Tools;

/// The OpenACC version accc defines as `_OPENACC` (3.3).
pub const OPENACC_VERSION: u32 = 202211;

/// A failure already reported to the user (diagnostics or a tool's own
/// messages): exit 1 without printing more.
#[derive(Debug)]
pub struct Reported;

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "errors were reported")
    }
}

impl std::error::Error for Reported {}

/// Runs accc on a command line; returns the exit code.
pub fn main(argv: &[String]) -> i32 {
    let args = match args::parse(argv) {
        Ok(a) => a,
        Err(e) => {
            // clap's own --help output is printed as is.
            if e.contains("Usage:") && !e.starts_with("error") {
                print!("{e}");
                return 0;
            }
            eprintln!("accc: error: {}", e.trim_end());
            return 1;
        }
    };
    if args.own.version {
        print!(
            "{}",
            args::version_text(inkwell::support::get_llvm_version(), OPENACC_VERSION)
        );
        return 0;
    }
    // A bug of accc is one line, never a panic message or a backtrace;
    // exit status 4, as gcc's internal compiler errors.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("accc: internal compiler error: {what}{at}; please report it");
    }));
    match std::panic::catch_unwind(|| run(&args)) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) if e.is::<Reported>() => 1,
        Ok(Err(e)) => {
            eprintln!("accc: error: {e:#}");
            1
        }
        Err(_) => 4,
    }
}

fn run(args: &Args) -> Result<()> {
    if args.sources.is_empty() && args.link.iter().all(|l| l.starts_with('-')) {
        bail!("no input files");
    }
    for s in &args.sources {
        if !s.is_file() {
            bail!("{}: No such file or directory", s.display());
        }
        if irfile::is_ir(s) && args.own.emit.is_none() {
            bail!(
                "{}: an IR input needs --emit (ir, ir-unscheduled, info, llvm, ptx, simt or cuda)",
                s.display()
            );
        }
    }
    let tools = Tools::find();
    if args.preprocess_only {
        for s in &args.sources {
            let obj = object_name(args, s);
            let text = preprocess(&tools, args, s, &obj)?;
            write_out(args.output.as_deref(), text.as_bytes())?;
        }
        return Ok(());
    }
    if args.assemble_only {
        if args.output.is_some() && args.sources.len() > 1 {
            bail!("cannot specify -o with -S and multiple files");
        }
        for s in &args.sources {
            let out = match &args.output {
                Some(o) => o.clone(),
                None => PathBuf::from(s.file_stem().unwrap_or_default()).with_extension("s"),
            };
            compile(&tools, args, s, Some(&out))?;
        }
        return Ok(());
    }
    if args.own.emit.is_some() {
        if args.sources.len() != 1 {
            bail!("--emit needs exactly one C source");
        }
        if irfile::is_ir(&args.sources[0]) {
            return irfile::compile(&tools, args, &args.sources[0]);
        }
        return compile(&tools, args, &args.sources[0], None);
    }
    let tmp = tempfile::Builder::new().prefix("accc").tempdir()?;
    if args.compile_only {
        if args.output.is_some() && args.sources.len() > 1 {
            bail!("cannot specify -o with -c and multiple files");
        }
        for s in &args.sources {
            let out = match &args.output {
                Some(o) => o.clone(),
                None => PathBuf::from(s.file_stem().unwrap_or_default()).with_extension("o"),
            };
            compile(&tools, args, s, Some(&out))?;
        }
        return Ok(());
    }
    let mut objects = vec![];
    for (i, s) in args.sources.iter().enumerate() {
        let out = tmp.path().join(format!("{i}.o"));
        compile(&tools, args, s, Some(&out))?;
        objects.push(out);
    }
    link(&tools, args, &objects)?;
    if args.own.keep {
        let kept = tmp.keep();
        eprintln!("accc: intermediate files kept in {}", kept.display());
    }
    Ok(())
}

fn run_cmd(cmd: &mut Command, verbose: bool) -> Result<std::process::Output> {
    if verbose {
        eprintln!("accc: {cmd:?}");
    }
    cmd.output()
        .with_context(|| format!("cannot run {:?}", cmd.get_program()))
}

/// The object file compiling `src` makes (the target of its make
/// dependencies): `-o` with `-c`, else SOURCE.o.
/// When compiling and linking in one step with `-o prog`, the target is
/// `prog` (and `-MD` writes prog.d), as gcc does.
fn object_name(args: &Args, src: &Path) -> PathBuf {
    let linking = !args.compile_only && !args.assemble_only && !args.preprocess_only;
    match &args.output {
        Some(o) if args.compile_only && args.sources.len() == 1 => o.clone(),
        Some(o) if linking => o.clone(),
        _ => PathBuf::from(src.file_stem().unwrap_or_default()).with_extension("o"),
    }
}

/// The `-M…` flags of the preprocessor for `src`, whose object is `obj`
/// (as cc: `-MD` writes OBJ.d unless `-MF` says where, the target is the
/// object unless `-MT`/`-MQ` say otherwise).
fn dep_flags(args: &Args, obj: &Path) -> Vec<String> {
    let d = &args.deps;
    let mut v = vec![];
    if let Some(only) = d.only {
        v.push(only.to_string());
        if let Some(f) = &d.file {
            v.extend(["-MF".to_string(), f.clone()]);
        }
    } else if let Some(side) = d.side_file {
        let file = d
            .file
            .clone()
            .unwrap_or_else(|| obj.with_extension("d").to_string_lossy().into_owned());
        v.extend([side.to_string(), "-MF".to_string(), file]);
        if d.targets.is_empty() {
            v.extend(["-MT".to_string(), obj.to_string_lossy().into_owned()]);
        }
    } else {
        return v;
    }
    for (flag, target) in &d.targets {
        v.extend([flag.clone(), target.clone()]);
    }
    v.extend(d.extra.iter().cloned());
    v
}

/// Preprocesses `src` with the host compiler (`-E -fopenacc`, `_OPENACC` and
/// `__ACCC__` defined, as nvc defines `__NVCOMPILER`), writing its
/// make dependencies as the `-M…` flags ask (`obj`: the object it makes).
fn preprocess(tools: &Tools, args: &Args, src: &Path, obj: &Path) -> Result<String> {
    let mut cmd = Command::new(&tools.host_cc);
    cmd.arg("-E")
        .arg("-fopenacc")
        .arg("-U_OPENACC")
        .arg(format!("-D_OPENACC={OPENACC_VERSION}"))
        .arg("-D__ACCC__=1");
    if let Some(inc) = &tools.include_dir {
        cmd.arg("-isystem").arg(inc);
    }
    cmd.args(&args.cpp_flags)
        .args(&args.cc_flags)
        .args(dep_flags(args, obj))
        .arg(src);
    let out = run_cmd(&mut cmd, args.own.verbose)?;
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err(Reported.into());
    }
    String::from_utf8(out.stdout)
        .map_err(|_| anyhow!("{}: the preprocessed source is not UTF-8", src.display()))
}

/// Whether diagnostics are coloured (`-fdiagnostics-color`, else on a
/// terminal without `NO_COLOR`).
fn colour(args: &Args) -> bool {
    use std::io::IsTerminal;
    match args.colour {
        Colour::Always => true,
        Colour::Never => false,
        Colour::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    }
}

fn report(d: Diagnostics, colour: bool) -> anyhow::Error {
    eprint!("{}", d.render(colour));
    Reported.into()
}

fn write_out(path: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match path {
        Some(p) if p != Path::new("-") => {
            std::fs::write(p, bytes).with_context(|| format!("cannot write {}", p.display()))
        }
        _ => {
            use std::io::Write;
            std::io::stdout().write_all(bytes)?;
            Ok(())
        }
    }
}

/// Validates the IR (`scheduled`: after schedule and specialise); each
/// problem is an internal compiler error, reported as
/// `file:line:col: error: internal: …` at its location (the source file's
/// name where it has none), but for errors in the user's source (the
/// levels of loops: [`crate::ir::ValidationErrorKind::in_source`]), which
/// are diagnostics at theirs; compilation stops before any output.
fn check_ir(m: &crate::ir::Module, scheduled: bool, file: &str, colour: bool) -> Result<()> {
    let problems = crate::ir::validate(m, scheduled);
    if problems.is_empty() {
        return Ok(());
    }
    let stage = if scheduled { "scheduled" } else { "lowered" };
    for p in &problems {
        if p.kind.in_source() {
            let d = crate::diag::Diagnostic::error(p.at.clone(), p.kind.to_string());
            eprint!("{}", d.render(colour));
            continue;
        }
        let at =
            p.at.as_ref()
                .map_or_else(|| file.to_string(), ToString::to_string);
        eprintln!("{at}: error: internal: invalid {stage} IR: {p}");
    }
    Err(Reported.into())
}

/// What the device code is scheduled for: the host's cores with
/// `-acc=multicore`, else the GPU `-gpu=ccXY` names. (With `-acc=host` no
/// device code is made.)
fn device_target(args: &Args) -> crate::ir::Target {
    match args.target {
        Target::Multicore => crate::ir::Target::host(),
        Target::Gpu | Target::Host => crate::ir::Target::for_arch(&args.own.gpu_arch),
    }
}

/// Compiles one source: to the object `out` (with `-S`: the assembly
/// `out`, and the device code's PTX beside it), or (with `--emit`) to the
/// requested form.
fn compile(tools: &Tools, args: &Args, src: &Path, out: Option<&Path>) -> Result<()> {
    let obj = match out {
        Some(o) if args.compile_only => o.to_path_buf(),
        _ => object_name(args, src),
    };
    let text = preprocess(tools, args, src, &obj)?;
    let file = src.to_string_lossy().to_string();
    if args.target == Target::Host {
        return host_only(tools, args, &file, &text, out);
    }
    let mut t = frontend::translate(text, &file).map_err(|d| report(d, colour(args)))?;
    if std::env::var_os("ACCC_SHOW_OPAQUE").is_some_and(|v| v != "0") {
        for (loc, why) in &t.opaque {
            eprintln!("{loc}: accc: left to the host compiler: {why}");
        }
    }
    let remarks = decide(args, &mut t.module, &t.remarks)?;
    check_ir(&t.module, false, &file, colour(args))?;
    let Some(d) = device(tools, args, &file, &mut t.module, true, &remarks)? else {
        return Ok(());
    };
    let Device {
        ptx,
        cubin,
        simt: simt_bytes,
        opts,
        relocatable,
        has_kernels,
        host_kernels,
    } = d;
    let mut host_c = host::write(&t.text, &t.module);
    let host_table = host_kernels
        .as_ref()
        .and_then(|_| cuda::host_table(&t.module));
    let nsyms = t.module.kernels.len() + t.module.cells.len();
    if has_kernels {
        let cells: Vec<(String, String)> = t
            .module
            .cells
            .iter()
            .map(|c| (c.symbol.clone(), c.host.clone()))
            .collect();
        let dir = tools
            .lib_dir
            .as_ref()
            .map(|d| d.to_string_lossy().to_string());
        let mut code = vec![];
        if !ptx.is_empty() {
            code.push(embed::Code {
                kind: embed::CODE_PTX,
                arch: None,
                bytes: ptx.as_bytes(),
            });
        }
        if let Some(c) = cubin.as_deref() {
            code.push(embed::Code {
                kind: embed::CODE_CUBIN,
                arch: Some(opts.arch.as_str()),
                bytes: c,
            });
        }
        if let Some(b) = simt_bytes.as_deref() {
            code.push(embed::Code {
                kind: embed::CODE_SIMT,
                arch: None,
                bytes: b,
            });
        }
        host_c.push_str(&embed::write_c(&embed::Image {
            source: &file,
            code: &code,
            plugin_dir: dir.as_deref(),
            relocatable,
            recursive: t.module.recursive(),
            cells: &cells,
            host_table: host_table.as_deref().map(|s| (s, nsyms)),
        }));
    }
    if args.target == Target::Multicore {
        host_c.push_str(multicore::SELECT);
    }
    if args.own.emit.as_deref() == Some("host-c") {
        return write_out(args.output.as_deref(), host_c.as_bytes());
    }
    let Some(out) = out else { return Ok(()) };
    if args.assemble_only && !ptx.is_empty() {
        let ptx_file = out.with_extension("ptx");
        std::fs::write(&ptx_file, &ptx)
            .with_context(|| format!("cannot write {}", ptx_file.display()))?;
    }
    match &host_kernels {
        Some(k) => multicore::compile(tools, args, &file, &host_c, k, out),
        None => host_compile(tools, args, &file, &host_c, out),
    }
}

/// What the device stages make of a module for the object file.
struct Device {
    ptx: String,
    cubin: Option<Vec<u8>>,
    simt: Option<Vec<u8>>,
    opts: nvptx::Options,
    relocatable: bool,
    has_kernels: bool,
    /// With `-acc=multicore`: the host C of the kernels and device
    /// functions (`None` when there are none), compiled beside the host C.
    host_kernels: Option<String>,
}

/// The device stages of a module that validated (`lowered`: as the front
/// end lowers it, its loops' levels decided, else already scheduled):
/// analysis, schedule, the back ends, ptxas; `remarks` (the front end's
/// and the decision's, [`decide`]) are printed once the launch
/// sizes they name are known. Writes the form `--emit` asks for and gives
/// `None`, or gives what the object needs.
fn device(
    tools: &Tools,
    args: &Args,
    file: &str,
    m: &mut crate::ir::Module,
    lowered: bool,
    remarks: &[(crate::ir::SrcLoc, crate::ir::Remark)],
) -> Result<Option<Device>> {
    let emit = args.own.emit.as_deref();
    let out = args.output.as_deref();
    if matches!(emit, Some("info" | "ir-unscheduled")) && lowered && args.own.remarks {
        // Not scheduled here: the remarks name the launch sizes that
        // schedule would compute (on a copy; the output is the lowered IR).
        let mut scheduled = m.clone();
        let remarks = with_privates(remarks, &mut scheduled);
        let info = crate::analysis::analyze(&scheduled);
        let notes = crate::schedule::schedule(&mut scheduled, &info, &device_target(args));
        print_remarks(args, &remarks, &scheduled, &notes);
    }
    let scheduling = lowered && !matches!(emit, Some("info" | "ir-unscheduled"));
    let remarks = if scheduling {
        with_privates(remarks, m)
    } else {
        remarks.to_vec()
    };
    // The side table of the lowered module (see `analysis`), privatised:
    // the back ends read it for the scheduled one.
    let mut info = crate::analysis::analyze(m);
    if emit == Some("info") {
        crate::analysis::add_sections(m, &mut info);
        write_out(out, crate::analysis::print_info(m, &info).as_bytes())?;
        return Ok(None);
    }
    if emit == Some("ir-unscheduled") {
        if !lowered {
            bail!(
                "{file}: the module is already scheduled (--emit=ir-unscheduled needs lowered IR)"
            );
        }
        write_out(out, crate::ir::print_module(m).as_bytes())?;
        return Ok(None);
    }
    if lowered {
        let notes = crate::schedule::schedule(m, &info, &device_target(args));
        print_remarks(args, &remarks, m, &notes);
        crate::schedule::specialize(m);
        check_ir(m, true, file, colour(args))?;
    }
    let opts = nvptx::Options {
        arch: args.own.gpu_arch.clone(),
        opt_level: args.opt_level.max(2),
        libdevice: tools.libdevice.clone(),
        llvm_options: args.llvm_options.clone(),
        fma: args.fma,
        fast: args.fast_math,
        line_info: args.line_info(),
    };
    if args.target == Target::Multicore && emit != Some("ir") {
        return multicore::device(m, &info, file, emit, out, opts);
    }
    if emit == Some("simt") {
        let text = simt::write_text(m, &info, &simt::Options { fma: args.fma })
            .map_err(|e| anyhow!("{file}: {e}"))?;
        write_out(out, text.as_bytes())?;
        return Ok(None);
    }
    if emit == Some("ir") {
        write_out(out, crate::ir::print_module(m).as_bytes())?;
        return Ok(None);
    }
    if emit == Some("cuda") {
        write_out(out, cuda_text(m, &info, file)?.as_bytes())?;
        return Ok(None);
    }
    if emit == Some("llvm") {
        let ll = nvptx::write_llvm(m, &info, &opts).map_err(|e| anyhow!("{file}: {e}"))?;
        write_out(out, ll.as_bytes())?;
        return Ok(None);
    }
    // Device code: kernels, or device functions other files' code calls.
    // Code that calls or exports device functions across translation units
    // is assembled relocatable and linked by the runtime.
    let relocatable = m.relocatable();
    let has_kernels = !m.kernels.is_empty() || relocatable;
    // Both paths' PTX is assembled alike: by `ptxas` (for the nvcc path,
    // nvcc's own when it has one beside it), after the same rewrites of
    // what ptxas miscompiles.
    let assemble = |ptx: &str, ptxas: Option<&std::path::Path>| -> Result<Option<Vec<u8>>> {
        match ptxas {
            Some(ptxas) => Ok(Some(
                nvptx::ptxas::assemble(ptx, &opts.arch, ptxas, relocatable, opts.line_info)
                    .map_err(|e| {
                        anyhow!(
                        "{file}: internal compiler error: ptxas rejected the generated PTX: {e}"
                    )
                    })?,
            )),
            None if std::env::var_os("ACCC_REQUIRE_PTXAS").is_some_and(|v| v != "0") => {
                bail!("ACCC_REQUIRE_PTXAS is set but ptxas was not found (set ACCC_PTXAS or run scripts/setup.sh)")
            }
            None => Ok(None),
        }
    };
    let (ptx, cubin) = match (args.backend, has_kernels) {
        (_, false) => (String::new(), None),
        (Backend::Llvm, true) => {
            let ptx = nvptx::write_ptx(m, &info, &opts).map_err(|e| anyhow!("{file}: {e}"))?;
            let cubin = assemble(&ptx, tools.ptxas.as_deref())?;
            (ptx, cubin)
        }
        (Backend::Cuda, true) => {
            let nvcc = tools.nvcc().map_err(|e| anyhow!(e))?;
            let text = cuda_text(m, &info, file)?;
            let flags = cuda::nvcc::Flags {
                arch: opts.arch.clone(),
                opt_level: opts.opt_level,
                line_info: args.line_info(),
                relocatable,
                fma: opts.fma,
                fast: opts.fast,
                keep_files: args.own.keep,
            };
            let o = cuda::nvcc::compile(&text, nvcc, &flags, args.own.verbose).map_err(
                |e| match e {
                    cuda::Error::Nvcc(m) => anyhow!(
                        "{file}: internal compiler error: nvcc rejected the generated CUDA C: {m}"
                    ),
                    e => anyhow!("{file}: {e}"),
                },
            )?;
            let ptx = nvptx::avoid_ptxas_bugs(&o.ptx);
            let beside = nvcc
                .parent()
                .map(|d| d.join("ptxas"))
                .filter(|p| p.is_file());
            let cubin = assemble(&ptx, beside.as_deref().or(tools.ptxas.as_deref()))?;
            (ptx, cubin)
        }
    };
    if emit == Some("ptx") {
        write_out(out, ptx.as_bytes())?;
        return Ok(None);
    }
    let simt = if has_kernels && args.emu {
        Some(
            simt::write_bytes(m, &info, &simt::Options { fma: args.fma })
                .map_err(|e| anyhow!("{file}: {e}"))?,
        )
    } else {
        None
    };
    Ok(Some(Device {
        ptx,
        cubin,
        simt,
        opts,
        relocatable,
        has_kernels,
        host_kernels: None,
    }))
}

/// The CUDA C of a scheduled module (`#line` directives naming `file`'s
/// lines).
fn cuda_text(
    m: &crate::ir::Module,
    info: &crate::analysis::ModuleInfo,
    file: &str,
) -> Result<String> {
    let o = cuda::Options {
        line_directives: true,
        ..Default::default()
    };
    cuda::write_cuda(m, info, &o).map_err(|e| anyhow!("{file}: {e}"))
}

/// `-acc=host`: the program as written, compute constructs running on the
/// host (the runtime starts with `ACC_DEVICE_TYPE=host` unless the
/// environment says otherwise), `acc_*` calls served by libptxrt.
fn host_only(tools: &Tools, args: &Args, file: &str, text: &str, out: Option<&Path>) -> Result<()> {
    let Some(out) = out else {
        bail!("--emit needs OpenACC for the GPU (not -acc=host)");
    };
    let host_c = format!(
        "{text}\nextern int setenv(const char *, const char *, int);\n__attribute__((constructor)) static void __accc_host_only(void) {{ setenv(\"ACC_DEVICE_TYPE\", \"host\", 0); }}\n"
    );
    host_compile(tools, args, file, &host_c, out)
}

/// Compiles the host C `host_c` of `file` to `out` (an object, or with `-S`
/// assembly) with the host compiler.
fn host_compile(tools: &Tools, args: &Args, file: &str, host_c: &str, out: &Path) -> Result<()> {
    let Some(inc) = &tools.include_dir else {
        bail!("cannot find ptxrt.h (set ACCC_INCLUDE to the folder of accc's headers)");
    };
    let dir = tempfile::Builder::new().prefix("accc").tempdir()?;
    let host_file = dir.path().join("host.c");
    std::fs::write(&host_file, host_c)?;
    let mut cmd = Command::new(&tools.host_cc);
    cmd.arg(if args.assemble_only { "-S" } else { "-c" })
        .arg("-x")
        .arg("c")
        .arg("-Wno-unknown-pragmas")
        .args(&args.cc_flags)
        .arg("-I")
        .arg(inc)
        .arg(&host_file)
        .arg("-o")
        .arg(out);
    let r = run_cmd(&mut cmd, args.own.verbose)?;
    eprint!("{}", String::from_utf8_lossy(&r.stderr));
    if args.own.keep {
        let kept = dir.keep();
        eprintln!(
            "accc: host C of {file} kept in {}",
            kept.join("host.c").display()
        );
    }
    if !r.status.success() {
        let _ = std::fs::remove_file(out);
        return Err(Reported.into());
    }
    Ok(())
}

/// The C of the link-time record of the plugin's directory: a constructor
/// that tells libptxrt where accc's lib dir (and so `libptxrt-cuda.so`)
/// was when the program was linked, so that every program accc links finds
/// the plugin, whether or not its own files hold device code. It also
/// hands the runtime the program's own `acc_register_library` (a tool
/// linked into the program, OpenACC 3.3 5.3.1), through a weak reference:
/// null when the program has none.
fn plugin_dir_c(lib: &Path) -> String {
    format!(
        "/* accc: where the device plugin was when this program was linked,\n\
         \x20  and the program's OpenACC tool library, if it has one. */\n\
         extern void __ptxrt_register_plugin_dir(const char *dir);\n\
         extern void __ptxrt_register_tool(void (*)(void *, void *, void *));\n\
         extern void acc_register_library(void *, void *, void *) __attribute__((weak));\n\
         __attribute__((constructor)) static void __accc_plugin_dir(void)\n\
         {{\n  __ptxrt_register_plugin_dir({});\n  __ptxrt_register_tool(acc_register_library);\n}}\n",
        host::c_str(&lib.to_string_lossy())
    )
}

/// Links objects with libptxrt (and the record of the plugin's directory).
fn link(tools: &Tools, args: &Args, objects: &[PathBuf]) -> Result<()> {
    let Some(lib) = &tools.lib_dir else {
        bail!("cannot find libptxrt.a next to accc (build the workspace: cargo build --workspace)");
    };
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from("a.out"));
    let dir = tempfile::Builder::new().prefix("accc").tempdir()?;
    let record = dir.path().join("accc_plugin_dir.c");
    std::fs::write(&record, plugin_dir_c(lib))?;
    let mut cmd = Command::new(&tools.host_cc);
    // -fPIC: the record compiles for any output (also -shared).
    cmd.args(objects)
        .arg("-fPIC")
        .arg(&record)
        .args(&args.link)
        .args(
            args.cc_flags
                .iter()
                .filter(|f| f.starts_with("-m") || *f == "-pthread" || f.starts_with("-f")),
        );
    cmd.arg(lib.join("libptxrt.a"))
        .args(["-lpthread", "-ldl", "-lm", "-lrt"])
        .arg("-o")
        .arg(&out);
    let r = run_cmd(&mut cmd, args.own.verbose)?;
    eprint!("{}", String::from_utf8_lossy(&r.stderr));
    if !r.status.success() {
        let _ = std::fs::remove_file(&out);
        return Err(Reported.into());
    }
    Ok(())
}
