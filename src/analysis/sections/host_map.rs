//! The implicit map of a pointer's derived section ([`super::Section`]):
//! the clause its uses imply and the C text of its first byte and length,
//! evaluated on the host where the construct starts, with the name the
//! `-Minfo` remark shows (`x[0:n]`, in elements when the bounds divide
//! exactly, else in bytes). `data_attrs` gives it to each pointer that
//! has no data clause.
//!
//! Owns: [`Section::kind`], [`Section::host_map`]. May call: `ir::host`,
//! `poly`.

use super::Section;
use crate::analysis::Poly;
use crate::ir::host::{HostMap, MapKind, MAP_BLOCK};
use crate::ir::{HostAddr, HostBytes, HostType, Lvalue, Scaled, SrcLoc, UserExpr};

impl Section {
    /// The clause its uses imply: `copyin` when only read, `copyout` when
    /// only written (and completely), else `copy`.
    pub fn kind(&self) -> MapKind {
        let whole = match (
            prune(&self.lo, true).as_slice(),
            prune(&self.end, false).as_slice(),
        ) {
            ([l], [e]) => self.covers.iter().any(|(cl, ce)| cl == l && ce == e),
            _ => false,
        };
        match (self.read, self.written) {
            (_, false) => MapKind::CopyIn,
            (false, true) if whole => MapKind::CopyOut,
            _ => MapKind::Copy,
        }
    }

    /// The implicit map of pointer `var` (`elem`: the size of its elements
    /// when known): a present-or-copy of the section, or of the present
    /// block that holds its start ([`MAP_BLOCK`]). Its expressions are
    /// located at `loc`, the construct.
    pub fn host_map(&self, var: &str, elem: Option<u64>, loc: &SrcLoc) -> HostMap {
        let (mut lo, mut end) = (prune(&self.lo, true), prune(&self.end, false));
        if lo.is_empty() || end.is_empty() {
            (lo, end) = (vec![Poly::default()], vec![Poly::default()]);
        }
        // In elements when the bounds divide exactly, else in bytes.
        let in_elems = elem.filter(|s| *s > 0).and_then(|s| {
            let s = i128::from(s);
            let l: Option<Vec<Poly>> = lo.iter().map(|p| p.div(s, false)).collect();
            let e: Option<Vec<Poly>> = end.iter().map(|p| p.div(s, true)).collect();
            Some((l?, e?))
        });
        let bytes_unit = in_elems.is_none();
        if let Some((l, e)) = in_elems {
            (lo, end) = (l, e);
        }
        let (lo_c, end_c) = (fold_c(&lo, true), fold_c(&end, false));
        let len_c = format!("({end_c} - {lo_c})");
        let expr = |text: String, ty| UserExpr {
            text,
            loc: loc.clone(),
            ty,
        };
        // Integer arithmetic (the start may lie outside the object); a
        // null pointer stays null (no action: the region cannot use it).
        let (elem, shown) = if bytes_unit {
            (None, format!("((char *){var})"))
        } else {
            (
                Some(Lvalue::var(var).index(vec!["0".into()])),
                var.to_string(),
            )
        };
        let start = HostAddr::Offset {
            ptr: Lvalue::var(var),
            by: Scaled {
                count: expr(lo_c, HostType::ULong),
                elem: elem.clone(),
            },
        };
        let bytes = HostBytes::Scaled(Scaled {
            count: expr(format!("{len_c} > 0 ? {len_c} : 0LL"), HostType::ULong),
            elem,
        });
        let len = match (lo.as_slice(), end.as_slice()) {
            ([l], [e]) => e
                .sub(l)
                .map_or_else(|| format!("{e} - {l}"), |d| d.to_string()),
            _ => format!("{} - {}", show(&end, false), show(&lo, true)),
        };
        let guard = (!self.guards.is_empty()).then(|| {
            let g: Vec<String> = self
                .guards
                .iter()
                .map(|g| format!("{} >= 0LL", g.c_expr()))
                .collect();
            expr(g.join(" && "), HostType::Bool)
        });
        HostMap {
            name: format!("{shown}[{}:{len}]", show(&lo, true)),
            start,
            bytes,
            kind: self.kind(),
            flags: MAP_BLOCK,
            extent_guard: guard,
            implicit: true,
            in_const: false,
        }
    }
}

/// The candidates that may be the least (`least`) or greatest: those no
/// other is below (above) by a constant.
fn prune(c: &[Poly], least: bool) -> Vec<Poly> {
    let mut out: Vec<Poly> = vec![];
    for p in c {
        let beaten = |q: &Poly| {
            q.sub(p)
                .and_then(|d| d.as_const())
                .is_some_and(|d| if least { d <= 0 } else { d >= 0 })
        };
        if out.iter().any(beaten) {
            continue;
        }
        out.retain(|q| {
            !p.sub(q)
                .and_then(|d| d.as_const())
                .is_some_and(|d| if least { d < 0 } else { d > 0 })
        });
        out.push(p.clone());
    }
    out
}

/// The C expression of the least (`least`) or greatest candidate.
fn fold_c(c: &[Poly], least: bool) -> String {
    let op = if least { "<" } else { ">" };
    let mut it = c.iter().map(Poly::c_expr);
    let first = it.next().unwrap_or_else(|| "0LL".to_string());
    it.fold(first, |acc, x| format!("({acc} {op} {x} ? {acc} : {x})"))
}

/// How the least (greatest) candidate reads in a remark.
fn show(c: &[Poly], least: bool) -> String {
    match c {
        [p] => p.to_string(),
        _ => {
            let all: Vec<String> = c.iter().map(Poly::to_string).collect();
            format!("{}({})", if least { "min" } else { "max" }, all.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::frontend::translate;
    use crate::ir::host::{HostMap, MapKind, MAP_BLOCK};

    /// The maps of the first compute construct of `body` (inside `void
    /// f(int n, int m, double *a, double *b, int *ix)`), as `(name, kind,
    /// guarded)`, and the remarks, once decided (`schedule::decide_data`).
    fn maps(body: &str) -> (Vec<(String, MapKind, bool)>, Vec<String>) {
        let src = format!("void f(int n, int m, double *a, double *b, int *ix) {{\n{body}\n}}\n");
        let mut t = translate(src, "t.c").expect("translates");
        crate::schedule::decide_data(&mut t.module, &mut t.remarks).expect("decides");
        let c = t.module.host.constructs.first().expect("a construct");
        let ms: Vec<&HostMap> = c.maps.iter().collect();
        assert!(ms.iter().all(|m| m.flags & MAP_BLOCK != 0), "{ms:?}");
        (
            ms.iter()
                .map(|m| (m.name.clone(), m.kind, m.extent_guard.is_some()))
                .collect(),
            t.remarks
                .into_iter()
                .map(|(_, r)| r.unsized_text())
                .collect(),
        )
    }

    fn m(name: &str, kind: MapKind, guarded: bool) -> (String, MapKind, bool) {
        (name.to_string(), kind, guarded)
    }

    #[test]
    fn one_dimensional_sections_and_kinds() {
        let (ms, _) = maps("#pragma acc parallel loop\nfor (int i = 1; i < n - 1; i++) a[i] = b[i - 1] + b[i + 1];");
        assert_eq!(
            ms,
            [
                m("a[1:n - 2]", MapKind::CopyOut, false),
                m("b[0:n]", MapKind::CopyIn, false)
            ]
        );
        let (ms, _) = maps("#pragma acc parallel loop\nfor (int i = 0; i <= n; i++) a[i] += 1;");
        assert_eq!(ms, [m("a[0:n + 1]", MapKind::Copy, false)]);
        // Downward, with a step of 3: not every element written.
        let (ms, _) = maps("#pragma acc parallel loop\nfor (int i = n; i > 0; i -= 3) a[i] = 0;");
        assert_eq!(ms, [m("a[1:n]", MapKind::Copy, false)]);
        // Written under a condition: copy, so the others come back unchanged.
        let (ms, _) =
            maps("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) if (i % 2) a[i] = 0;");
        assert_eq!(ms, [m("a[0:n]", MapKind::Copy, false)]);
    }

    #[test]
    fn symbolic_strides_are_guarded() {
        let (ms, _) = maps("#pragma acc parallel loop collapse(2)\nfor (int i = 0; i < n; i++) for (int j = 0; j < m; j++) a[i * m + j] = b[j];");
        assert_eq!(
            ms,
            [
                m("a[0:m*n]", MapKind::CopyOut, true),
                m("b[0:m]", MapKind::CopyIn, false)
            ]
        );
        // A pointer local standing for a row; a sequential inner loop.
        let (ms, _) = maps("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) { double *r = a + i * m; for (int j = 0; j < m; j++) r[j] = 1; }");
        assert_eq!(ms, [m("a[0:m*n]", MapKind::CopyOut, true)]);
    }

    #[test]
    fn underived_extents_say_why() {
        let (ms, rs) = maps("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) a[ix[i]] = 1;");
        assert_eq!(ms, [m("ix[0:n]", MapKind::CopyIn, false)]);
        assert!(rs.iter().any(|r| r.contains("'a' has no data clause and its extent cannot be derived (a subscript is not affine")), "{rs:?}");
        let (ms, rs) = maps("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) { double *p = a; p += i; *p = 1; }");
        assert!(ms.is_empty(), "{ms:?}");
        assert!(rs.iter().any(|r| r.contains("'a'")), "{rs:?}");
        let (ms, rs) = maps("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) { int k = i; k *= k; a[k] = 1; }");
        assert!(ms.is_empty(), "{ms:?}");
        assert!(
            rs.iter().any(|r| r.contains("'k' changes in the region")),
            "{rs:?}"
        );
    }

    #[test]
    fn clauses_and_default_present_come_first() {
        let (ms, _) = maps(
            "#pragma acc parallel loop default(present)\nfor (int i = 0; i < n; i++) a[i] = b[i];",
        );
        assert!(ms.is_empty(), "{ms:?}");
        let src = "void f(int n, double *a) {\n#pragma acc data copy(a[0:n])\n#pragma acc parallel loop\nfor (int i = 0; i < n; i++) a[i] = 1;\n}\n";
        let mut t = translate(src.to_string(), "t.c").unwrap();
        crate::schedule::decide_data(&mut t.module, &mut t.remarks).expect("decides");
        assert!(t.module.host.constructs[0].body[0].maps.is_empty());
    }
}
