//! The privatisation pass over the IR (`schedule::auto_privates`, on the
//! facts of `analysis::private`), which privatises and remarks, against
//! the rule the front end still applies on the C AST (`frontend/
//! privatize.rs`) for its implicit reductions, on every
//! program of `tests/programs/` and `tests/remarks/`: the scalars the pass
//! reports as "is private to the loop: it is assigned before it is read in
//! every iteration" must be those the front end's rule finds, loop by loop
//! (by line), or the warnings would contradict the remarks.
//!
//! Each program is compiled with `ACCC_REMARK_AST_PRIVATES=1`, a debug
//! switch under which the front end remarks what its rule finds. The few
//! differences whose cause is known are listed in [`EXPLAINED`], each with
//! its cause; any other difference fails.

mod common;
use std::collections::BTreeSet;
use std::path::Path;

/// (file, line, scalar, which side has it, why).
const EXPLAINED: &[(&str, u32, &str, &str, &str)] = &[
    (
        "private.c",
        35,
        "acc",
        "AST",
        "private(acc) on the construct: in the IR a local of the region used only inside the loop, like one declared in its body (each thread's own already: nothing to privatise)",
    ),
    (
        "private_parts.c",
        20,
        "m",
        "AST",
        "the AST counts the assignments of an inner loop's private(m) copy as the outer loop's; the outer body never uses m itself",
    ),
    (
        "red_nested.c",
        484,
        "i",
        "AST",
        "i is the index of a loop collapsed into an inner loop: the IR knows it as that loop's own",
    ),
];

/// The loops (by line) and the scalars privatised in them.
type Privates = BTreeSet<(u32, String)>;

/// What each side, the AST rule and the pass, privatises in program `file`.
fn both_sides(file: &Path) -> Result<(Privates, Privates), String> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let name = file.file_name().unwrap_or_default();
    let out = common::accc()
        .current_dir(dir)
        .env("ACCC_REMARK_AST_PRIVATES", "1")
        .args(["-Minfo=accel", "--emit=ir-unscheduled", "-I", "."])
        .arg(name)
        .output()
        .map_err(|e| format!("running accc: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let remarks = String::from_utf8_lossy(&out.stderr);
    let side = |marker: &str| -> Privates {
        remarks
            .lines()
            .filter_map(|l| {
                let (head, _) = l.split_once(marker)?;
                let (at, var) = head.split_once(": '")?;
                let line = at.rsplit(':').next()?.parse().ok()?;
                Some((line, var.to_string()))
            })
            .collect()
    };
    let ast = side("' is private to the loop by the front end's rule");
    let ir = side("' is private to the loop: it is assigned before it is read in every iteration");
    Ok((ast, ir))
}

#[test]
fn privatize_agrees_with_the_ast_rule() {
    let root = common::root();
    let mut files: Vec<_> = ["tests/programs", "tests/remarks"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root.join(d))
                .expect("test folder")
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() > 100, "only {} programs", files.len());
    let mut failures = vec![];
    let mut explained = 0;
    let mut agreed = 0;
    for f in &files {
        let base = f.file_name().unwrap_or_default().to_string_lossy();
        let (ast, ir) = match both_sides(f) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{base}: {e}"));
                continue;
            }
        };
        agreed += ast.intersection(&ir).count();
        let sides = [("AST", ast.difference(&ir)), ("IR", ir.difference(&ast))];
        for (side, extra) in sides {
            for (line, var) in extra {
                let known = EXPLAINED
                    .iter()
                    .any(|(f, l, v, s, _)| *f == base && l == line && v == var && *s == side);
                if known {
                    explained += 1;
                } else {
                    failures.push(format!(
                        "{base}:{line}: only the {side} rule privatises '{var}'"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        explained,
        EXPLAINED.len(),
        "an explained difference is gone: update EXPLAINED"
    );
    assert!(agreed >= 15, "only {agreed} privatised scalars compared");
}
