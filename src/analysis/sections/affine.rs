//! Byte offsets as affine forms of the loop variables, for `extent`.
//!
//! Owns: [`Affine`]. May call: `poly`.

use crate::analysis::poly::Poly;
use crate::ir::LocalId;
use std::collections::BTreeMap;

/// A linear form over loop variables, with polynomial coefficients.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Affine {
    pub vars: BTreeMap<LocalId, Poly>,
    pub konst: Poly,
}

impl Affine {
    pub fn konst(p: Poly) -> Affine {
        Affine {
            vars: BTreeMap::new(),
            konst: p,
        }
    }

    pub fn var(l: LocalId) -> Affine {
        Affine {
            vars: BTreeMap::from([(l, Poly::konst(1))]),
            konst: Poly::default(),
        }
    }

    pub fn add(&self, o: &Affine) -> Option<Affine> {
        let mut r = self.clone();
        r.konst = r.konst.add(&o.konst)?;
        for (v, c) in &o.vars {
            let sum = match r.vars.get(v) {
                Some(x) => x.add(c)?,
                None => c.clone(),
            };
            if sum.is_zero() {
                r.vars.remove(v);
            } else {
                r.vars.insert(*v, sum);
            }
        }
        Some(r)
    }

    pub fn times(&self, p: &Poly) -> Option<Affine> {
        let mut r = Affine::konst(self.konst.mul(p)?);
        for (v, c) in &self.vars {
            let c = c.mul(p)?;
            if !c.is_zero() {
                r.vars.insert(*v, c);
            }
        }
        Some(r)
    }

    /// The product, when one side has no loop variable.
    pub fn mul(&self, o: &Affine) -> Option<Affine> {
        if self.vars.is_empty() {
            o.times(&self.konst)
        } else if o.vars.is_empty() {
            self.times(&o.konst)
        } else {
            None
        }
    }
}
