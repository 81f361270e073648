//! Control flow in loop bodies: `if`/`else`, inner `for`, `while` and (a feature)
//! `do ... while` loops with small constant trip counts, `break`/`continue`, and (a
//! feature) `switch` with fall-through.

use super::Body;
use crate::env::Scalar;
use crate::expr::Expr;
use crate::ops::{self, Bin};
use crate::span::Span;
use crate::ty::Ty;

impl Body<'_> {
    pub(super) fn if_stmt(&mut self) {
        let c = self.ctx.any_expr(&self.env, 2);
        self.line(&format!("if ({}) {{", c.text));
        self.braced(3);
        if self.ctx.rng.chance(40) {
            self.line("} else {");
            self.braced(3);
        }
        self.line("}");
    }

    /// A trip count that keeps the product of nested trips within 16.
    fn trip_count(&mut self) -> u32 {
        let max = (16 / self.trip).clamp(1, 4);
        self.ctx.rng.range(1, i64::from(max)) as u32
    }

    fn in_loop(&mut self, trip: u32, counter: Scalar, max: u32) {
        let saved = self.trip;
        self.trip *= trip;
        self.loops += 1;
        self.breakable += 1;
        self.env.scalars.push(counter);
        self.braced(max);
        self.env.scalars.pop();
        self.breakable -= 1;
        self.loops -= 1;
        self.trip = saved;
    }

    pub(super) fn for_stmt(&mut self) {
        let t = i128::from(self.trip_count());
        let j = self.ctx.fresh("j");
        let (ty, header, span) = match self.ctx.rng.below(5) {
            0 => (
                Ty::Int,
                format!("for (int {j} = {}; {j} >= 0; {j}--) {{", t - 1),
                Span::int(0, t - 1),
            ),
            1 => (
                Ty::Int,
                format!("for (int {j} = 0; {j} < {}; {j} += 2) {{", 2 * t),
                Span::int(0, 2 * t - 2),
            ),
            2 => (
                Ty::Long,
                format!("for (long {j} = 1; {j} <= {t}; ++{j}) {{"),
                Span::int(1, t),
            ),
            3 => (
                Ty::UInt,
                format!("for (unsigned {j} = {t}; {j}-- > 0;) {{"),
                Span::int(0, t - 1),
            ),
            _ => (
                Ty::Int,
                format!("for (int {j} = 0; {j} < {t}; {j}++) {{"),
                Span::int(0, t - 1),
            ),
        };
        self.line(&header);
        let counter = Scalar {
            text: j.clone(),
            base: j,
            ty,
            span,
            mutable: false,
        };
        self.in_loop(t as u32, counter, 4);
        self.line("}");
    }

    /// `while` (or, with `do_while`, `do ... while`) counting `w` from 1 to the trip
    /// count; `w` is incremented first, so `continue` cannot skip it.
    pub(super) fn while_stmt(&mut self, do_while: bool) {
        let t = i128::from(self.trip_count());
        let w = self.ctx.fresh("w");
        self.line("{");
        self.indent += 1;
        self.line(&format!("int {w} = 0;"));
        if do_while {
            self.ctx.used.do_while = true;
            self.line("do {");
        } else if self.ctx.rng.chance(50) {
            self.line(&format!("while ({w} < {t}) {{"));
        } else {
            self.line(&format!("while ({w} != {t}) {{"));
        }
        self.indent += 1;
        self.line(&format!("{w}++;"));
        self.indent -= 1;
        let counter = Scalar {
            text: w.clone(),
            base: w.clone(),
            ty: Ty::Int,
            span: Span::int(1, t),
            mutable: false,
        };
        self.in_loop(t as u32, counter, 4);
        if do_while {
            self.line(&format!("}} while ({w} < {t});"));
        } else {
            self.line("}");
        }
        self.indent -= 1;
        self.line("}");
    }

    pub(super) fn jump(&mut self) {
        let c = self.ctx.any_expr(&self.env, 1);
        let what = if self.loops > 0 && self.ctx.rng.chance(50) || self.breakable == 0 {
            "continue"
        } else {
            "break"
        };
        self.line(&format!("if ({}) {what};", c.text));
    }

    pub(super) fn switch_stmt(&mut self) {
        self.ctx.used.switch = true;
        let t = self.ctx.int_ty();
        let base = self.expr(t, 2);
        let modulus = Expr::leaf("5", Ty::Int, Span::int(5, 5));
        let sel = ops::binary(Bin::Rem, &base, &modulus, false).expect("% 5 is safe");
        let (lo, hi) = sel.span.ints();
        let (lo, hi) = (lo.max(-6), hi.min(6).max(lo.max(-6)));
        let mut labels: Vec<i128> = Vec::new();
        for _ in 0..self.ctx.rng.range(2, 4) {
            let v = i128::from(self.ctx.rng.range(lo as i64, hi as i64));
            if !labels.contains(&v) {
                labels.push(v);
            }
        }
        let default_at = self.ctx.rng.below(labels.len() as u64 + 2) as usize;
        self.line(&format!("switch ({}) {{", sel.text));
        self.breakable += 1;
        for k in 0..=labels.len() {
            if k == default_at {
                self.case("default:");
            }
            if let Some(v) = labels.get(k) {
                self.case(&format!("case {v}:"));
            }
        }
        self.breakable -= 1;
        self.line("}");
    }

    /// One `case` of a switch: braced statements, then `break` or a fall-through.
    fn case(&mut self, label: &str) {
        self.line(&format!("{label} {{"));
        self.braced(2);
        if self.ctx.rng.chance(40) {
            self.line("} /* fall through */");
        } else {
            self.line("} break;");
        }
    }
}
