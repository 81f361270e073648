//! Relocatable device images, end to end but for the front end (which cannot
//! emit `acc routine` functions yet): a program of two translation units built
//! by hand from the files in `tests/rdc/`.
//!
//! * `add_one.ptx` — the device image of unit `tests/rdc/add_one.c`: a
//!   `.visible .func add_one`; the unit has no host code.
//! * `kernel.ptx` — the device image of unit `tests/rdc/main.c`: the kernel
//!   `rdc_add_one` calling add_one through `.extern .func`.
//! * `main.c` — that unit's host code (launches the kernel, checks the result).
//!
//! Each image is embedded with accc's `embed::write_c`, its cubin made with
//! accc's `ptxas::assemble` (`-c`: both are relocatable), the units compiled
//! with `cc` and linked with libptxrt.a — the steps accc takes for
//! `accc -c main.c; accc -c add_one.c; accc main.o add_one.o`.
//!
//! Without a GPU (CI) the tests check that the PTX pair assembles with
//! `ptxas -c` and links with `nvlink`, and that the programs build and run
//! through the host fallback. The run on a GPU is `scripts/gpu-bundle.sh`'s:
//! it calls the ignored test [`write_gpu_bundle_programs`] with
//! `ACCC_RDC_BUNDLE` set to the bundle folder, which adds three programs:
//! `rdc_link` (cubins linked), `rdc_link_ptx` (no cubins: the driver's JIT
//! links the PTX) and `rdc_undefined` (add_one's unit left out: the launch
//! must fail with one line naming the unit and the undefined `add_one`).
//!
//! Needs the workspace built first (`cargo build --workspace`: libptxrt.a in
//! `target/<profile>/`). ptxas and nvlink come from `ACCC_PTXAS` /
//! `ACCC_NVLINK` or `.tools/pip` (scripts/setup.sh), and must exist on CI.

use accc::codegen::embed::{self, Code, Image};
use accc::codegen::nvptx::ptxas;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ADD_ONE_PTX: &str = include_str!("rdc/add_one.ptx");
const KERNEL_PTX: &str = include_str!("rdc/kernel.ptx");
const MAIN_C: &str = include_str!("rdc/main.c");
const ARCH: &str = "sm_90";

/// One program of the check and what it must do on a GPU.
struct Program {
    name: &'static str,
    /// Whether add_one's unit is linked in.
    with_add_one: bool,
    /// Whether the images carry cubins (else only PTX).
    cubins: bool,
    /// Its stdout and exit status on a GPU (ACC_DEVICE_TYPE=nvidia).
    gpu_stdout: &'static str,
    gpu_rc: i32,
    /// An extended regular expression its stderr must match on a GPU.
    gpu_stderr: Option<&'static str>,
}

const PASS: &str =
    "PASS rdc_link: rdc_add_one ran with add_one linked from another image, 1000 values right\n";

const PROGRAMS: [Program; 3] = [
    Program {
        name: "rdc_link",
        with_add_one: true,
        cubins: true,
        gpu_stdout: PASS,
        gpu_rc: 0,
        gpu_stderr: None,
    },
    Program {
        name: "rdc_link_ptx",
        with_add_one: true,
        cubins: false,
        gpu_stdout: PASS,
        gpu_rc: 0,
        gpu_stderr: None,
    },
    Program {
        name: "rdc_undefined",
        with_add_one: false,
        cubins: true,
        gpu_stdout: "",
        gpu_rc: 1,
        gpu_stderr: Some(
            "^tests/rdc/main.c:[0-9]+: error: parallel loop: cannot load the kernel: 'rdc_add_one': linking the cubins sm_90 of tests/rdc/main.c: .*add_one",
        ),
    },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `$env`, else `.tools/pip/nvidia/cu13/bin/<exe>`; required on CI.
fn tool(env: &str, exe: &str) -> Option<PathBuf> {
    let found = std::env::var_os(env)
        .map(PathBuf::from)
        .into_iter()
        .chain([root().join(".tools/pip/nvidia/cu13/bin").join(exe)])
        .find(|p| p.is_file());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{exe} must be installed on CI (scripts/setup.sh)"
        );
    }
    found
}

/// `target/<profile>/` of this test binary (`target/<profile>/deps/rdc-*`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target dir")
        .to_path_buf()
}

fn host_cc() -> String {
    std::env::var("ACCC_HOST_CC").unwrap_or_else(|_| "cc".to_string())
}

fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The C of one device image as accc embeds it; the cubin assembled
/// relocatable when `cubin` and ptxas is installed.
fn image_c(source: &str, ptx: &str, cubin: bool) -> String {
    let relocatable = true; // the pair calls across images
    let cubin = match (cubin, tool("ACCC_PTXAS", "ptxas")) {
        (true, Some(p)) => {
            Some(ptxas::assemble(ptx, ARCH, &p, relocatable, false).expect("ptxas -c"))
        }
        _ => None,
    };
    let mut code = vec![Code {
        kind: embed::CODE_PTX,
        arch: None,
        bytes: ptx.as_bytes(),
    }];
    if let Some(c) = cubin.as_deref() {
        code.push(Code {
            kind: embed::CODE_CUBIN,
            arch: Some(ARCH),
            bytes: c,
        });
    }
    embed::write_c(&Image {
        source,
        code: &code,
        plugin_dir: None,
        relocatable,
        recursive: false,
        cells: &[],
        host_table: None,
    })
}

/// Builds `p` in `dir` (sources, objects and the executable `dir/<name>`).
fn build(p: &Program, dir: &Path) -> PathBuf {
    fs::create_dir_all(dir).expect("build folder");
    let lib = target_dir().join("libptxrt.a");
    assert!(
        lib.is_file(),
        "{} is not built (cargo build --workspace)",
        lib.display()
    );
    let mut units = vec![(
        "main",
        format!(
            "{MAIN_C}{}",
            image_c("tests/rdc/main.c", KERNEL_PTX, p.cubins)
        ),
    )];
    if p.with_add_one {
        let c = image_c("tests/rdc/add_one.c", ADD_ONE_PTX, p.cubins);
        units.push(("add_one", format!("#include <ptxrt.h>\n{c}")));
    }
    let mut objects = Vec::new();
    for (unit, text) in units {
        let src = dir.join(format!("{}_{unit}.c", p.name));
        let obj = src.with_extension("o");
        fs::write(&src, text).expect("write unit");
        run_ok(
            Command::new(host_cc())
                .args(["-std=gnu11", "-O1", "-Wall", "-Werror", "-c", "-I"])
                .arg(root().join("ptx-runtime/include"))
                .arg(&src)
                .arg("-o")
                .arg(&obj),
        );
        objects.push(obj);
    }
    let exe = dir.join(p.name);
    run_ok(
        Command::new(host_cc())
            .args(&objects)
            .arg(&lib)
            .args(["-lpthread", "-ldl", "-lm", "-lrt", "-o"])
            .arg(&exe),
    );
    exe
}

fn nvlink(dir: &Path, nvlink: &Path, cubins: &[&Path]) -> Output {
    Command::new(nvlink)
        .arg(format!("-arch={ARCH}"))
        .args(cubins)
        .arg("-o")
        .arg(dir.join("linked.cubin"))
        .output()
        .expect("run nvlink")
}

#[test]
fn pair_assembles_with_ptxas_c_and_links_with_nvlink() {
    let (Some(ptxas_exe), Some(nvlink_exe)) =
        (tool("ACCC_PTXAS", "ptxas"), tool("ACCC_NVLINK", "nvlink"))
    else {
        eprintln!("skipped: ptxas or nvlink not installed (scripts/setup.sh)");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for (name, ptx) in [("add_one", ADD_ONE_PTX), ("kernel", KERNEL_PTX)] {
        let cubin = ptxas::assemble(ptx, ARCH, &ptxas_exe, true, false).expect("ptxas -c");
        let f = dir.path().join(format!("{name}.cubin"));
        fs::write(&f, cubin).expect("write cubin");
        files.push(f);
    }
    let both = nvlink(dir.path(), &nvlink_exe, &[&files[0], &files[1]]);
    assert!(
        both.status.success(),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
    let alone = nvlink(dir.path(), &nvlink_exe, &[&files[1]]);
    assert!(!alone.status.success());
    let err = String::from_utf8_lossy(&alone.stderr);
    assert!(err.contains("Undefined reference to 'add_one'"), "{err}");
}

#[test]
fn programs_build_and_fall_back_to_the_host() {
    let dir = tempfile::tempdir().expect("temp dir");
    for p in &PROGRAMS {
        let exe = build(p, dir.path());
        let out = Command::new(&exe)
            .env("ACC_DEVICE_TYPE", "host")
            .output()
            .expect("run program");
        assert!(out.status.success(), "{}: {out:?}", p.name);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "rdc_link: no device, the linked kernel did not run\n",
            "{}",
            p.name
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{}", p.name);
    }
}

/// Writes the programs into the GPU bundle folder `$ACCC_RDC_BUNDLE` in its
/// layout (see scripts/gpu-bundle.sh): `bin/<name>`, `expected/<name>.out`,
/// `.rc`, `.tol`, `.stderr` (a regular expression for stderr, when the
/// program must fail), and one line per program in `programs.txt`.
#[test]
#[ignore = "run by scripts/gpu-bundle.sh with ACCC_RDC_BUNDLE set"]
fn write_gpu_bundle_programs() {
    let bundle = PathBuf::from(std::env::var_os("ACCC_RDC_BUNDLE").expect("ACCC_RDC_BUNDLE"));
    let work = tempfile::tempdir().expect("temp dir");
    let mut list = fs::read_to_string(bundle.join("programs.txt")).unwrap_or_default();
    for p in &PROGRAMS {
        assert!(
            !p.cubins || tool("ACCC_PTXAS", "ptxas").is_some(),
            "{} needs ptxas",
            p.name
        );
        let exe = build(p, work.path());
        fs::copy(&exe, bundle.join("bin").join(p.name)).expect("copy program");
        let exp = bundle.join("expected").join(p.name);
        let write = |ext: &str, text: &str| {
            fs::write(exp.with_extension(ext), text).expect("write expected file")
        };
        write("out", p.gpu_stdout);
        write("rc", &format!("{}\n", p.gpu_rc));
        write("tol", "0\n");
        if let Some(re) = p.gpu_stderr {
            write("stderr", &format!("{re}\n"));
        }
        list.push_str(p.name);
        list.push('\n');
        println!("bundled {}", p.name);
    }
    fs::write(bundle.join("programs.txt"), list).expect("write programs.txt");
}
