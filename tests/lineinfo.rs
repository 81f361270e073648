//! Device line information (issue 19): `-g`, `-gpu=lineinfo` and
//! `-lineinfo` make the NVPTX back end's PTX name the user's source lines
//! (`.file`/`.loc`, which ptxas keeps with `-lineinfo`, and which
//! compute-sanitizer and cuda-gdb report), without marking it
//! `.target …, debug` (ptxas refuses optimised code so marked); without
//! them the PTX has none. The host fallback keeps the user's lines too.
//! (The nvcc path's: `nvcc.rs`.)

mod common;

use common::{run, RUN_TIMEOUT};
use std::collections::BTreeSet;
use std::process::Command;

const PROG: &str = r#"#include <stdio.h>
#include "twice.h"
int main(void)
{
    static float a[1000];
#pragma acc parallel loop copyout(a)
    for (int i = 0; i < 1000; i++) {
        float t = (float)i;
        a[i] = twice(t);
    }
    printf("%.1f\n", a[999]);
    return 0;
}
"#;

const TWICE_H: &str = "#pragma acc routine seq
static float twice(float x)
{
    return 2.0f * x;
}
";

/// The 1-based line of `text` in `src`.
fn line_of(src: &str, text: &str) -> u32 {
    let i = src.lines().position(|l| l.contains(text)).unwrap();
    i as u32 + 1
}

/// A folder with the program.
fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("p.c"), PROG).unwrap();
    std::fs::write(tmp.path().join("twice.h"), TWICE_H).unwrap();
    tmp
}

use common::accc_ok as ok;

/// Each spelling of line information gives the kernel `.loc` lines of the
/// source file, every one within the construct (its directive to the
/// loop's closing brace) and among them the loop's and the body
/// statement's, and the routine's body line in the header; the PTX stays
/// optimised code that ptxas assembles (the test harness requires ptxas
/// on CI, and accc assembles what it emits). Without them, or after
/// `-g0`, no line information.
#[test]
fn line_info_flags_locate_the_device_code() {
    let p = project();
    let d = p.path();
    let (construct, body, end) = (
        line_of(PROG, "#pragma acc parallel loop"),
        line_of(PROG, "a[i] = twice(t);"),
        line_of(PROG, "printf") - 1,
    );
    let lp = line_of(PROG, "for (int i");
    let routine = line_of(TWICE_H, "return 2.0f * x;");
    let ptx = |flags: &[&str]| {
        let mut args = vec!["-O2", "--emit=ptx", "p.c", "-o", "-"];
        args.extend_from_slice(flags);
        ok(d, &args).stdout
    };
    for flags in [
        &["-g"][..],
        &["-gpu=lineinfo"],
        &["-lineinfo"],
        &["-gpu=cc90,lineinfo"],
        &["-g0", "-g3"],
    ] {
        let ptx = ptx(flags);
        assert!(
            ptx.lines().any(|l| l.trim() == ".target sm_90"),
            "{flags:?}: not a plain target:\n{ptx}"
        );
        let lines = common::ptx_loc_lines(&ptx, "/p.c")
            .unwrap_or_else(|| panic!("{flags:?}: no .file naming p.c:\n{ptx}"));
        for want in [lp, body] {
            assert!(
                lines.contains(&want),
                "{flags:?}: no .loc at line {want} (got {lines:?}):\n{ptx}"
            );
        }
        // (Line 0: code LLVM merged from several lines.)
        let outside: BTreeSet<u32> = lines
            .iter()
            .copied()
            .filter(|&l| l != 0 && !(construct..=end).contains(&l))
            .collect();
        assert!(
            outside.is_empty(),
            "{flags:?}: .loc outside the construct: {outside:?}:\n{ptx}"
        );
        let header = common::ptx_loc_lines(&ptx, "/twice.h")
            .unwrap_or_else(|| panic!("{flags:?}: no .file naming twice.h:\n{ptx}"));
        assert!(header.contains(&routine), "{flags:?}: {header:?}:\n{ptx}");
    }
    for flags in [&[][..], &["-g", "-g0"], &["-gpu=cc90"]] {
        let ptx = ptx(flags);
        assert!(
            !ptx.contains(".loc") && !ptx.contains(".file") && !ptx.contains(".section"),
            "{flags:?}: line information:\n{ptx}"
        );
    }
}

/// `-lineinfo` is accc's, not a library for the link (`-l ineinfo`), and
/// programs built with it or with `-g` run (here: the host fallback);
/// the host C of a `-g` build keeps the user's lines where a construct
/// was rewritten (the statements of its host fallback stay on theirs).
#[test]
fn line_info_programs_build_and_host_lines_stay_the_users() {
    let p = project();
    let d = p.path();
    for flag in ["-lineinfo", "-g", "-gpu=lineinfo"] {
        ok(d, &[flag, "p.c", "-o", "p"]);
        let r = run(Command::new(d.join("p")), d, "p", RUN_TIMEOUT);
        assert!(r.ok(), "{flag}: {}\n{}", r.describe_status(), r.stderr);
        assert_eq!(r.stdout.trim(), "1998.0", "{flag}");
    }
    let host = ok(d, &["-g", "--emit=host-c", "p.c", "-o", "-"]).stdout;
    // The source line of each line of the host C, as the C preprocessor
    // counts (line markers `# N "file" flags`).
    let at = |text: &str| -> Option<u32> {
        let mut line: Option<u32> = None;
        host.lines().find_map(|l| {
            if let Some(rest) = l.strip_prefix("# ") {
                let mut w = rest.split_whitespace();
                let n: u32 = w.next()?.parse().ok()?;
                line = (w.next() == Some("\"p.c\""))
                    .then(|| n.checked_sub(1))
                    .flatten();
                return None;
            }
            line = line.map(|n| n + 1);
            l.contains(text).then_some(line).flatten()
        })
    };
    for text in ["float t = (float)i;", "a[i] = twice(t);", "printf("] {
        assert_eq!(at(text), Some(line_of(PROG, text)), "{text}:\n{host}");
    }
}
