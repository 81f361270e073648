//! The generator's state while it writes one program: the PRNG, the features it may
//! use and those it did use, and fresh names.

use super::features::Features;
use super::rng::Rng;
use super::ty::Ty;

pub struct Ctx {
    pub rng: Rng,
    /// Constructs that may be generated.
    pub feat: Features,
    /// Constructs that were generated.
    pub used: Features,
    next_name: u32,
}

impl Ctx {
    pub fn new(seed: u64, feat: Features) -> Ctx {
        Ctx {
            rng: Rng::new(seed),
            feat,
            used: Features::NONE,
            next_name: 0,
        }
    }

    /// A name not used before in this program: `prefix` and a number.
    pub fn fresh(&mut self, prefix: &str) -> String {
        self.next_name += 1;
        format!("{prefix}{}", self.next_name)
    }

    /// A random arithmetic type.
    pub fn any_ty(&mut self) -> Ty {
        *self.rng.pick(&Ty::ALL)
    }

    /// A random integer type.
    pub fn int_ty(&mut self) -> Ty {
        *self.rng.pick(&Ty::INTS)
    }
}
