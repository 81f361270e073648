//! The machine a module is compiled for: its limits on launch sizes, which
//! scheduling (the launch geometry and its remarks) reads instead of constants
//! of their own. It lives in `ir` so every stage may name it.
//!
//! Owns: [`Target`] and [`Gpu`]. May call: nothing.
//!
//! Today the one target is an NVIDIA GPU ([`Target::Gpu`]), built from the
//! driver's `-gpu=ccXY` (`--gpu-arch=sm_XY`) with [`Target::for_arch`].
//! The host-multicore target of a later issue (OpenACC's `-acc=multicore`:
//! gangs as host threads, no blocks) becomes a second variant here, with
//! its own limits (the number of cores); `schedule` then maps loops by the
//! variant it is given. There is no such variant yet, on purpose: one that
//! did nothing would only be a branch every match had to refuse.

/// What scheduling is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// An NVIDIA GPU (PTX).
    Gpu(Gpu),
}

/// An NVIDIA GPU's limits on a launch (CUDA's "compute capability"
/// tables); the same for every architecture accc emits PTX for (sm_35 and
/// later), kept per target so that a later architecture may differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gpu {
    /// The architecture's number: 90 for `sm_90` (`-gpu=cc90`).
    pub sm: u32,
    /// Threads a block may have in all.
    pub max_threads_per_block: u32,
    /// Threads a block may have along x, y and z.
    pub max_block: [u32; 3],
    /// Blocks a grid may have along x, y and z.
    pub max_grid: [u32; 3],
    /// Threads of a warp. The reductions' shuffle code (`reduce.rs`) is
    /// written for PTX's 32-lane warps (full masks, `lane = tid & 31`).
    pub warp: u32,
    /// Named barriers a block has (`bar.sync` 0–15); barrier 0 is the
    /// block's, the others synchronise rows of workers.
    pub named_barriers: u32,
}

impl Target {
    /// The GPU `sm_<sm>`.
    pub fn gpu(sm: u32) -> Target {
        Target::Gpu(Gpu {
            sm,
            max_threads_per_block: 1024,
            max_block: [1024, 1024, 64],
            max_grid: [i32::MAX as u32, 65535, 65535],
            warp: 32,
            named_barriers: 16,
        })
    }

    /// The GPU an architecture name gives (`sm_90`, `sm_90a`, `sm_80`);
    /// a name without a number (ptxas refuses it later) has the limits of
    /// every GPU accc knows, with `sm` 0.
    pub fn for_arch(arch: &str) -> Target {
        let digits: String = arch
            .strip_prefix("sm_")
            .unwrap_or(arch)
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        Target::gpu(digits.parse().unwrap_or(0))
    }

    /// The GPU's limits.
    pub fn gpu_limits(&self) -> &Gpu {
        match self {
            Target::Gpu(g) => g,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arch_names() {
        assert_eq!(Target::for_arch("sm_90a").gpu_limits().sm, 90);
        assert_eq!(Target::for_arch("sm_80").gpu_limits().sm, 80);
        assert_eq!(Target::for_arch("bogus").gpu_limits().sm, 0);
        let g = Target::gpu(70);
        assert_eq!(g.gpu_limits().max_threads_per_block, 1024);
        assert_eq!(g.gpu_limits().max_grid[1], 65535);
    }
}
