//! Pass tests from text files, cranelift filetest style: each
//! `tests/in/<name>.ir` is a module in the IR's text form whose first lines
//! say what to run and check (see tests/README.md):
//!
//! ```text
//! ; run: schedule
//! ; check: barrier Block
//! ; not: barrier Row
//! ```
//!
//! The module is read with `ir::read_module`, the pass runs, and its
//! result — the module printed (for `schedule`, then its remarks on launch
//! sizes as `; remark @kernel: text` lines), for `validate` the list of
//! problems, for `analyze` the side table, for `privatize` the scalars it
//! privatised and the module, for `implicit_reductions` the reductions it
//! made and the module, for `plan_levels` its remarks and the module (or
//! the nesting error), for `decide_data` its remarks and the module (or
//! the `default(none)` error) — must equal `tests/out/<run>/<name>.ir`
//! (`.txt` for `validate` and `analyze`), contain
//! every `; check:` text and no `; not:` text. `BLESS=1` rewrites the
//! expected files (review the diff).

mod common;
use accc::ir::{print_module, read_module, validate, Module};
use std::collections::HashMap;
use std::path::Path;

/// A pass over a module, giving its output as text; the test's text is
/// there for the header lines a pass reads (`; noalias:` for `depend`).
type Pass = fn(&mut Module, &str) -> Result<String, String>;

/// `schedule` for `target`: the scheduled module, then what it changed in
/// launch sizes the clauses give (-Minfo's remarks).
fn schedule(m: &mut Module, target: &accc::schedule::Target) -> Result<String, String> {
    valid(m, false, "input")?;
    let info = accc::analysis::analyze(m);
    let notes = accc::schedule::schedule(m, &info, target);
    valid(m, true, "output")?;
    let mut out = print_module(m);
    for (k, said) in m.kernels.iter().zip(&notes.launch) {
        for n in said {
            out.push_str(&format!("; remark @{}: {n}\n", k.name));
        }
    }
    for (at, n) in &notes.cache {
        out.push_str(&format!("; remark {}:{}: {n}\n", at.line, at.col));
    }
    Ok(out)
}

/// The first error of a pass that rejects its input, as its output.
fn first_error(d: &accc::diag::Diagnostics) -> String {
    let d = &d.0[0];
    let at = d.loc.as_ref().map_or(String::new(), |l| l.to_string());
    format!("{at}: error: {}\n", d.message)
}

/// The passes a test may run, each over `&mut Module`: its name, the
/// extension of its expected output, and the pass.
const RUNS: &[(&str, &str, Pass)] = &[
    ("schedule", "ir", |m, _| {
        schedule(m, &accc::schedule::Target::gpu(90))
    }),
    ("schedule-host", "ir", |m, _| {
        schedule(m, &accc::schedule::Target::host())
    }),
    ("specialize", "ir", |m, _| {
        valid(m, true, "input")?;
        accc::schedule::specialize(m);
        valid(m, true, "output")?;
        Ok(print_module(m))
    }),
    ("flatten", "ir", |m, _| {
        valid(m, false, "input")?;
        accc::ir::flatten_indices(m);
        valid(m, false, "output")?;
        Ok(print_module(m))
    }),
    ("analyze", "txt", |m, _| analyze(m)),
    ("privatize", "ir", |m, text| {
        valid(m, false, "input")?;
        let shared = header(text, "shared").join(" ");
        let shared: Vec<&str> = shared.split_whitespace().collect();
        let done = accc::schedule::privatize(m, &|_, name| shared.contains(&name));
        valid(m, false, "output")?;
        let mut out: String = done
            .iter()
            .map(|(loc, name)| format!("; private at {loc}: {name}\n"))
            .collect();
        out.push_str(&print_module(m));
        Ok(out)
    }),
    ("auto_privates", "ir", |m, _| {
        valid(m, false, "input")?;
        let (done, races) = accc::schedule::auto_privates(m);
        valid(m, false, "output")?;
        let mut out: String = done
            .iter()
            .map(|(loc, name)| format!("; private at {loc}: {name}\n"))
            .chain(
                races
                    .iter()
                    .map(|(loc, name)| format!("; race at {loc}: {name}\n")),
            )
            .collect();
        out.push_str(&print_module(m));
        Ok(out)
    }),
    ("implicit_reductions", "ir", |m, _| {
        valid(m, false, "input")?;
        let made = accc::schedule::implicit_reductions(m);
        valid(m, false, "output")?;
        let mut out: String = made
            .iter()
            .map(|r| {
                let (op, var, line) = (r.op.symbol(), &r.var, r.origin);
                format!(
                    "; implicit at {}: reduction({op}:{var}) for line {line}\n",
                    r.loc
                )
            })
            .collect();
        out.push_str(&print_module(m));
        Ok(out)
    }),
    ("plan_levels", "ir", |m, _| {
        // The input's levels are undecided: validated once decided.
        let remarks = match accc::schedule::plan_levels(m) {
            Ok(r) => r,
            Err(d) => return Ok(first_error(&d)),
        };
        valid(m, false, "output")?;
        let mut out: String = remarks
            .iter()
            .map(|(_, l, r)| format!("; remark at {l}: {}\n", r.unsized_text()))
            .collect();
        out.push_str(&print_module(m));
        Ok(out)
    }),
    ("decide_data", "ir", |m, _| {
        // The input's data is undecided (as the front end records it).
        valid(m, false, "input")?;
        let mut remarks = vec![];
        if let Err(d) = accc::schedule::decide_data(m, &mut remarks) {
            return Ok(first_error(&d));
        }
        valid(m, false, "output")?;
        let mut out: String = remarks
            .iter()
            .map(|(l, r)| format!("; remark at {l}: {}\n", r.unsized_text()))
            .collect();
        out.push_str(&print_module(m));
        Ok(out)
    }),
    ("validate", "txt", |m, _| Ok(problems(m, false))),
    ("validate-scheduled", "txt", |m, _| Ok(problems(m, true))),
    ("depend", "txt", |m, text| {
        valid(m, false, "input")?;
        Ok(dependences(m, text))
    }),
];

/// The side table of a lowered module, printed; and a check that what the
/// back ends read of it (each parameter's access) holds for the module
/// `schedule` makes of it too, as `analysis/mod.rs` says.
fn analyze(m: &mut Module) -> Result<String, String> {
    valid(m, false, "input")?;
    let mut info = accc::analysis::analyze(m);
    accc::analysis::add_sections(m, &mut info);
    let mut scheduled = m.clone();
    accc::schedule::schedule(&mut scheduled, &info, &accc::schedule::Target::gpu(90));
    accc::schedule::specialize(&mut scheduled);
    let after = accc::analysis::analyze(&scheduled);
    for (k, (before, now)) in info.kernels.iter().zip(&after.kernels).enumerate() {
        for (p, (b, a)) in before.params.iter().zip(&now.params).enumerate() {
            if b != a {
                return Err(format!(
                    "kernel {k} parameter {p}: {b} before schedule, {a} after"
                ));
            }
        }
    }
    Ok(accc::analysis::print_info(m, &info))
}

/// The dependence test of every loop of every kernel, one line each (in
/// pre-order), with the scalars it could privatise. A kernel's pointer
/// parameters may alias unless the header's `; noalias:` names them, and
/// those `; byref:` names are scalars received by reference.
fn dependences(m: &Module, text: &str) -> String {
    use accc::analysis::body::Target;
    use accc::analysis::depend::{independent, privatizable, Facts, HostKind};
    use accc::ir::{walk_stmts, ParamMode, Stmt};
    let names = |key| -> Vec<String> {
        header(text, key)
            .iter()
            .flat_map(|l| l.split_whitespace().map(str::to_string))
            .collect()
    };
    let (noalias, byref) = (names("noalias"), names("byref"));
    let callee = |n: usize| m.functions.get(n).map_or("?".into(), |f| f.name.clone());
    let mut out = String::new();
    for k in &m.kernels {
        let host: HashMap<_, _> = k
            .params
            .iter()
            .map(|p| {
                let kind = match p.mode {
                    _ if byref.contains(&p.name) => HostKind::Scalar,
                    ParamMode::Value => HostKind::Scalar,
                    _ if noalias.contains(&p.name) => HostKind::NoAlias,
                    _ => HostKind::MayAlias,
                };
                (p.local, kind)
            })
            .collect();
        let fx = Facts {
            f: &k.body,
            host: &host,
            callee: &callee,
        };
        let name = |l| k.body.local(l).name.clone();
        walk_stmts(&k.body.body, &mut |s| {
            let Stmt::Loop(lp) = s else { return };
            let verdict = match independent(&fx, lp, &[]) {
                Ok(reds) if reds.is_empty() => "independent".to_string(),
                Ok(reds) => {
                    let r: Vec<String> = reds
                        .iter()
                        .map(|(op, t)| match t {
                            Target::Local(l) => format!("{}:{}", op.symbol(), name(*l)),
                            Target::Cell(l, _) => format!("{}:*{}", op.symbol(), name(*l)),
                        })
                        .collect();
                    format!("independent, reduction({})", r.join(" "))
                }
                Err(why) => format!("dependent: {why}"),
            };
            out.push_str(&format!(
                "{} loop {} {}: {verdict}\n",
                k.name,
                name(lp.var),
                lp.loc
            ));
            let p: Vec<String> = privatizable(&fx, lp).into_iter().map(name).collect();
            if !p.is_empty() {
                out.push_str(&format!("  privatizable: {}\n", p.join(" ")));
            }
        });
    }
    out
}

/// What `validate` says, one problem a line (`valid` when none).
fn problems(m: &Module, scheduled: bool) -> String {
    let p = validate(m, scheduled);
    if p.is_empty() {
        "valid\n".into()
    } else {
        p.iter().map(|l| format!("{l}\n")).collect()
    }
}

/// A pass's input and output must be valid IR.
fn valid(m: &Module, scheduled: bool, what: &str) -> Result<(), String> {
    let p = validate(m, scheduled);
    if p.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "invalid {what}:\n  {}",
            p.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n  ")
        ))
    }
}

/// The header of a test: `; key: value` lines before the module.
fn header<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    text.lines()
        .map_while(|l| l.trim().strip_prefix(';'))
        .filter_map(|l| l.trim().strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
        .collect()
}

fn check(root: &Path, input: &Path, bless: bool) -> Result<(), String> {
    let name = input
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    let text = std::fs::read_to_string(input).map_err(|e| format!("{name}: {e}"))?;
    let run = match header(&text, "run").as_slice() {
        [r] => r.to_string(),
        _ => return Err(format!("{name}: needs one '; run: PASS' line")),
    };
    let Some((_, ext, pass)) = RUNS.iter().find(|(r, ..)| *r == run) else {
        return Err(format!("{name}: unknown run '{run}'"));
    };
    let mut m = read_module(&text).map_err(|e| format!("{name}.ir:{e}"))?;
    let got = pass(&mut m, &text).map_err(|e| format!("{name}: {run}: {e}"))?;
    for c in header(&text, "check") {
        if !got.contains(c) {
            return Err(format!("{name}: no '{c}' in the output:\n{got}"));
        }
    }
    for c in header(&text, "not") {
        if got.contains(c) {
            return Err(format!("{name}: '{c}' in the output:\n{got}"));
        }
    }
    let expected_path = root.join(format!("tests/out/{run}/{name}.{ext}"));
    common::check_golden(&expected_path, &got, bless, &format!("{name}: {run}"))
}

#[test]
fn pass_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("BLESS").is_some();
    let mut inputs: Vec<_> = std::fs::read_dir(root.join("tests/in"))
        .expect("tests/in exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    inputs.sort();
    let failures: Vec<String> = inputs
        .iter()
        .filter_map(|p| check(root, p, bless).err())
        .collect();
    assert!(inputs.len() >= 20, "only {} pass tests", inputs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
