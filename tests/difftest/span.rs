//! What the generator knows about a value: an interval, and for floating values
//! whether the value is exact (no rounding happened computing it) and how fine it is.
//!
//! The generator writes an operation only when its span proves the operation free of
//! undefined behaviour (no signed overflow, no division by zero, no out-of-range
//! float-to-integer conversion) or wraps it in a form that is (see `expr.rs`).
//! Floating spans also keep every value finite, far from overflow: no inf, no NaN.
//!
//! Exactness is what lets host and device agree bit for bit: a floating product is
//! only written when it is exact, so a device that contracts `a * b + c` into an fma
//! computes the same value as the host's separate multiply and add (both round the
//! exact `a * b + c` once). Sums, quotients and conversions round identically on both
//! (IEEE round-to-nearest), so they may be inexact.

use super::ty::Ty;

/// Largest magnitude any floating expression may have.
pub const FP_LIMIT: f64 = 1e15;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Span {
    /// An integer value in `lo..=hi`.
    Int { lo: i128, hi: i128 },
    /// A floating value in `lo..=hi`; with `grain: Some(k)` the value is exact and an
    /// integer multiple of 2^-k (`k` may be negative).
    Fp {
        lo: f64,
        hi: f64,
        grain: Option<i32>,
    },
}

impl Span {
    pub fn int(lo: i128, hi: i128) -> Span {
        debug_assert!(lo <= hi, "empty span {lo}..{hi}");
        Span::Int { lo, hi }
    }

    /// Every value of `ty` (floating: every value the generator allows).
    pub fn full(ty: Ty) -> Span {
        if ty.is_float() {
            Span::Fp {
                lo: -FP_LIMIT,
                hi: FP_LIMIT,
                grain: None,
            }
        } else {
            Span::int(ty.min_int(), ty.max_int())
        }
    }

    /// A floating span for type `ty` holding the exact results `lo..=hi` of an
    /// operation. With `grain`, the results are exact, unless they are too large (or
    /// too fine) for `ty`: then the grain is dropped. Inexact results are rounded; as
    /// rounding is monotonic, a rounded result lies within a unit in the last place
    /// of the bounds, so the span is widened by that much and stays sound.
    pub fn fp(lo: f64, hi: f64, grain: Option<i32>, ty: Ty) -> Span {
        let mag = lo.abs().max(hi.abs());
        let p = ty.precision();
        let grain = grain.filter(|&k| mag * 2f64.powi(k) < 2f64.powi(p));
        if grain.is_some() {
            return Span::Fp { lo, hi, grain };
        }
        let ulp = |x: f64| x.abs() * 2f64.powi(1 - p) + f64::from(f32::MIN_POSITIVE);
        Span::Fp {
            lo: lo - ulp(lo),
            hi: hi + ulp(hi),
            grain: None,
        }
    }

    /// The span of one floating constant of type `ty`.
    pub fn fp_point(v: f64, ty: Ty) -> Span {
        Span::fp(v, v, Some(grain_of(v)), ty)
    }

    pub fn lo_f(&self) -> f64 {
        match *self {
            Span::Int { lo, .. } => lo as f64,
            Span::Fp { lo, .. } => lo,
        }
    }

    pub fn hi_f(&self) -> f64 {
        match *self {
            Span::Int { hi, .. } => hi as f64,
            Span::Fp { hi, .. } => hi,
        }
    }

    /// Largest magnitude.
    pub fn mag(&self) -> f64 {
        self.lo_f().abs().max(self.hi_f().abs())
    }

    /// Integer bounds (the span must be an integer span).
    pub fn ints(&self) -> (i128, i128) {
        match *self {
            Span::Int { lo, hi } => (lo, hi),
            Span::Fp { .. } => panic!("integer span expected, got {self:?}"),
        }
    }

    /// The grain of an exact floating span.
    pub fn grain(&self) -> Option<i32> {
        match *self {
            Span::Int { .. } => Some(0),
            Span::Fp { grain, .. } => grain,
        }
    }

    /// `Some(e)` when the span is the single value ±2^e (multiplying by it is exact).
    pub fn pow2_point(&self) -> Option<i32> {
        let (lo, hi) = (self.lo_f(), self.hi_f());
        let bits = lo.abs().to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i32;
        (lo == hi && lo != 0.0 && bits & ((1 << 52) - 1) == 0 && exp != 0).then_some(exp - 1023)
    }

    /// The smallest span holding both (of the same kind).
    pub fn hull(a: Span, b: Span) -> Span {
        match (a, b) {
            (Span::Int { lo: l1, hi: h1 }, Span::Int { lo: l2, hi: h2 }) => {
                Span::int(l1.min(l2), h1.max(h2))
            }
            (
                Span::Fp {
                    lo: l1,
                    hi: h1,
                    grain: g1,
                },
                Span::Fp {
                    lo: l2,
                    hi: h2,
                    grain: g2,
                },
            ) => Span::Fp {
                lo: l1.min(l2),
                hi: h1.max(h2),
                grain: g1.zip(g2).map(|(x, y)| x.max(y)),
            },
            _ => panic!("hull of mixed spans {a:?} {b:?}"),
        }
    }

    /// The span after converting a value of this span to `to`; `None` when the
    /// conversion may be undefined (a floating value out of an integer type's range).
    /// Out-of-range integer conversions wrap (implementation-defined for signed
    /// targets, modulo on every compiler accc pairs with).
    pub fn convert(self, to: Ty) -> Option<Span> {
        match (self, to.is_float()) {
            (Span::Int { lo, hi }, false) => Some(if to.min_int() <= lo && hi <= to.max_int() {
                self
            } else {
                Span::full(to)
            }),
            (Span::Int { lo, hi }, true) => Some(Span::fp(lo as f64, hi as f64, Some(0), to)),
            (Span::Fp { lo, hi, .. }, false) => {
                // Truncation must land in range; keep a margin for rounding.
                let ok = lo >= to.min_int() as f64 * 0.99 && hi <= to.max_int() as f64 * 0.99;
                ok.then(|| Span::int(lo.trunc() as i128, hi.trunc() as i128))
            }
            (Span::Fp { lo, hi, grain }, true) => Some(Span::fp(lo, hi, grain, to)),
        }
    }
}

/// The `k` with `v` an odd multiple of 2^-k (0 for 0).
pub fn grain_of(v: f64) -> i32 {
    if v == 0.0 {
        return 0;
    }
    let bits = v.abs().to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    };
    -(e + m.trailing_zeros() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grains_and_points() {
        assert_eq!(grain_of(0.375), 3);
        assert_eq!(grain_of(8.0), -3);
        assert_eq!(grain_of(1.0), 0);
        assert_eq!(Span::fp_point(0.25, Ty::Float).pow2_point(), Some(-2));
        assert_eq!(Span::fp_point(-16.0, Ty::Double).pow2_point(), Some(4));
        assert_eq!(Span::fp_point(3.0, Ty::Double).pow2_point(), None);
        // 0.1f is exact as a float (it is the float nearest 0.1), but fine-grained.
        let tenth = Span::fp_point(f64::from(0.1f32), Ty::Float);
        assert!(tenth.grain().is_some());
        assert_eq!(
            Span::int(0, 1 << 40).convert(Ty::Float).unwrap().grain(),
            None
        );
        assert_eq!(
            Span::fp(-300.5, 2.0, None, Ty::Double).convert(Ty::SChar),
            None
        );
        assert_eq!(
            Span::fp(-100.5, 2.0, None, Ty::Double).convert(Ty::SChar),
            Some(Span::int(-100, 2))
        );
    }
}
