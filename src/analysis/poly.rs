//! Polynomials with integer coefficients over host values (`3*n*m - 1`):
//! the loop bounds and subscripts of a compute region, as far as they are
//! made of constants and of host variables the region does not change.
//!
//! Owns: [`Poly`] (exact arithmetic, or `None` when a coefficient would
//! overflow or the degree grow past [`MAX_DEGREE`]), its C text (evaluated
//! on the host, in `long long`) and its display (for `-Minfo` remarks).
//! May call: nothing else in the crate.

use std::collections::BTreeMap;

/// The largest degree kept (a product of more host values gives up).
pub const MAX_DEGREE: usize = 4;

/// A sum of monomials: each a sorted list of host value names (C
/// expressions, such as `n` or `sizeof((u)[0])`) with a nonzero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Poly(BTreeMap<Vec<String>, i128>);

impl Poly {
    /// The constant `c`.
    pub fn konst(c: i128) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            p.0.insert(vec![], c);
        }
        p
    }

    /// The host value named `name`.
    pub fn sym(name: &str) -> Poly {
        let mut p = Poly::default();
        p.0.insert(vec![name.to_string()], 1);
        p
    }

    /// Its value when it is a constant.
    pub fn as_const(&self) -> Option<i128> {
        match self.0.len() {
            0 => Some(0),
            1 => self.0.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// `self + o`.
    pub fn add(&self, o: &Poly) -> Option<Poly> {
        let mut r = self.clone();
        for (m, c) in &o.0 {
            let e = r.0.entry(m.clone()).or_insert(0);
            *e = e.checked_add(*c)?;
            if *e == 0 {
                r.0.remove(m);
            }
        }
        Some(r)
    }

    /// `self - o`.
    pub fn sub(&self, o: &Poly) -> Option<Poly> {
        self.add(&o.scale(-1)?)
    }

    /// `c * self`.
    pub fn scale(&self, c: i128) -> Option<Poly> {
        let mut r = Poly::default();
        if c == 0 {
            return Some(r);
        }
        for (m, k) in &self.0 {
            r.0.insert(m.clone(), k.checked_mul(c)?);
        }
        Some(r)
    }

    /// `self * o`.
    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut r = Poly::default();
        for (m1, c1) in &self.0 {
            for (m2, c2) in &o.0 {
                let mut m: Vec<String> = m1.iter().chain(m2).cloned().collect();
                if m.len() > MAX_DEGREE {
                    return None;
                }
                m.sort();
                let t = Poly(BTreeMap::from([(m, c1.checked_mul(*c2)?)]));
                r = r.add(&t)?;
            }
        }
        Some(r)
    }

    /// Whether every coefficient is negative (a product of host values
    /// that are nonnegative is then not positive).
    pub fn all_negative(&self) -> bool {
        !self.0.is_empty() && self.0.values().all(|c| *c < 0)
    }

    /// `self / d` rounded toward −∞ when every coefficient but the
    /// constant one is a multiple of `d` (> 0), so that the result is exact
    /// for every value of the host values; `up`: rounded toward +∞.
    pub fn div(&self, d: i128, up: bool) -> Option<Poly> {
        if d <= 0 {
            return None;
        }
        let mut r = Poly::default();
        for (m, c) in &self.0 {
            let q = if m.is_empty() {
                if up {
                    (c + d - 1).div_euclid(d)
                } else {
                    c.div_euclid(d)
                }
            } else if c % d == 0 {
                c / d
            } else {
                return None;
            };
            if q != 0 {
                r.0.insert(m.clone(), q);
            }
        }
        Some(r)
    }

    /// The C expression of its value, in `long long`.
    pub fn c_expr(&self) -> String {
        if self.0.is_empty() {
            return "0LL".to_string();
        }
        let terms: Vec<String> = self
            .0
            .iter()
            .map(|(m, c)| {
                let mut t = format!("{c}LL");
                for s in m {
                    t.push_str(&format!(" * (long long)({s})"));
                }
                t
            })
            .collect();
        format!("({})", terms.join(" + "))
    }
}

impl std::fmt::Display for Poly {
    /// `n*m + 2*n - 1`: higher degrees first.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("0");
        }
        let mut terms: Vec<(&Vec<String>, &i128)> = self.0.iter().collect();
        terms.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        for (k, (m, c)) in terms.into_iter().enumerate() {
            let (neg, abs) = (*c < 0, c.unsigned_abs());
            match (k, neg) {
                (0, true) => f.write_str("-")?,
                (0, false) => {}
                (_, true) => f.write_str(" - ")?,
                (_, false) => f.write_str(" + ")?,
            }
            if m.is_empty() {
                write!(f, "{abs}")?;
                continue;
            }
            if abs != 1 {
                write!(f, "{abs}*")?;
            }
            f.write_str(&m.join("*"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_display() {
        let n = Poly::sym("n");
        let m = Poly::sym("m");
        let one = Poly::konst(1);
        // (n - 1) * m + (m - 1) + 1 = n*m
        let hi = n.sub(&one).unwrap().mul(&m).unwrap();
        let hi = hi.add(&m.sub(&one).unwrap()).unwrap();
        let len = hi.add(&one).unwrap();
        assert_eq!(len.to_string(), "m*n");
        assert_eq!(len, m.mul(&n).unwrap());
        let p = n.scale(2).unwrap().sub(&Poly::konst(3)).unwrap();
        assert_eq!(p.to_string(), "2*n - 3");
        assert_eq!(p.scale(-1).unwrap().to_string(), "-2*n + 3");
        assert_eq!(Poly::konst(0).to_string(), "0");
        assert_eq!(Poly::konst(-4).as_const(), Some(-4));
        assert_eq!(n.as_const(), None);
        assert!(n.sub(&n).unwrap().is_zero());
        assert!(n.scale(-3).unwrap().all_negative());
        assert!(!p.all_negative());
    }

    #[test]
    fn c_text_evaluates_in_long_long() {
        let p = Poly::sym("n")
            .scale(8)
            .unwrap()
            .add(&Poly::konst(-8))
            .unwrap();
        assert_eq!(p.c_expr(), "(-8LL + 8LL * (long long)(n))");
        assert_eq!(Poly::default().c_expr(), "0LL");
    }

    #[test]
    fn exact_division() {
        let p = Poly::sym("n")
            .scale(24)
            .unwrap()
            .add(&Poly::konst(16))
            .unwrap();
        assert_eq!(p.div(24, false).unwrap().to_string(), "n");
        assert_eq!(p.div(24, true).unwrap().to_string(), "n + 1");
        assert_eq!(Poly::konst(-1).div(8, false).unwrap().to_string(), "-1");
        assert_eq!(Poly::sym("n").div(8, false), None);
    }

    #[test]
    fn overflow_and_degree_give_up() {
        let big = Poly::konst(i128::MAX);
        assert_eq!(big.add(&Poly::konst(1)), None);
        let x = Poly::sym("a").mul(&Poly::sym("b")).unwrap();
        let x = x.mul(&x).unwrap();
        assert_eq!(x.mul(&Poly::sym("c")), None);
    }
}
