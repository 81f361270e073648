//! Local aggregates in loop bodies (features): fixed-size arrays, assigned element
//! by element or from an initialiser list, and struct variables.

use super::{clamp_text, conform, invariant, zero, Body};
use crate::env::{Access, ArrayView, Scalar, Shape};
use crate::expr::prec;
use crate::span::Span;

impl Body<'_> {
    pub(super) fn local_array(&mut self) {
        self.ctx.used.local_arrays = true;
        let ty = self.ctx.any_ty();
        let len = self.ctx.rng.range(2, 5) as i128;
        let name = self.ctx.fresh("t");
        let inv = invariant(self.ctx, ty, zero(ty).span);
        let mut clamps = Vec::new();
        if self.ctx.feat.init_lists && self.ctx.rng.chance(50) {
            self.ctx.used.init_lists = true;
            let given = self.ctx.rng.range(1, len as i64) as i128;
            let mut vals = Vec::new();
            for k in 0..given {
                let (e, clamp) = self.value_for(ty, inv, 2);
                vals.push(e.at(prec::ASSIGN));
                if clamp {
                    clamps.push(format!("{name}[{k}]"));
                }
            }
            let size = if given == len && self.ctx.rng.chance(50) {
                String::new()
            } else {
                len.to_string()
            };
            self.line(&format!(
                "{} {name}[{size}] = {{{}}};",
                ty.name(),
                vals.join(", ")
            ));
        } else {
            self.line(&format!("{} {name}[{len}];", ty.name()));
            for k in 0..len {
                let (e, clamp) = self.value_for(ty, inv, 2);
                self.line(&format!("{name}[{k}] = {};", e.at(prec::ASSIGN)));
                if clamp {
                    clamps.push(format!("{name}[{k}]"));
                }
            }
        }
        for c in clamps {
            self.line(&clamp_text(&c, ty, inv));
        }
        self.env.arrays.push(ArrayView {
            name,
            ty,
            span: inv,
            shape: Shape::Local(len),
            read: Access::Any,
            write: true,
        });
    }

    pub(super) fn struct_var(&mut self) {
        self.ctx.used.structs = true;
        let def = self.ctx.rng.pick(&self.structs).clone();
        let name = self.ctx.fresh("st");
        let mut members = Vec::new();
        let mut clamps = Vec::new();
        let mut vals = Vec::new();
        for (m, ty) in &def.members {
            let (e, _) = self.value_for(*ty, Span::full(*ty), 2);
            let span = e.span.convert(*ty).expect("value_for converts");
            let inv = invariant(self.ctx, *ty, span);
            let text = format!("{name}.{m}");
            if conform(span, inv) == Some(true) {
                clamps.push(clamp_text(&text, *ty, inv));
            }
            vals.push((m.clone(), e));
            members.push(Scalar {
                text,
                base: name.clone(),
                ty: *ty,
                span: inv,
                mutable: true,
            });
        }
        if self.ctx.feat.init_lists && self.ctx.rng.chance(50) {
            self.ctx.used.init_lists = true;
            let inits: Vec<String> = if self.ctx.rng.chance(50) {
                vals.iter().map(|(_, e)| e.at(prec::ASSIGN)).collect()
            } else {
                vals.iter()
                    .rev()
                    .map(|(m, e)| format!(".{m} = {}", e.at(prec::ASSIGN)))
                    .collect()
            };
            self.line(&format!(
                "struct {} {name} = {{{}}};",
                def.name,
                inits.join(", ")
            ));
        } else {
            self.line(&format!("struct {} {name};", def.name));
            for (m, e) in &vals {
                self.line(&format!("{name}.{m} = {};", e.at(prec::ASSIGN)));
            }
        }
        for c in clamps {
            self.line(&c);
        }
        self.env.scalars.extend(members);
    }
}
