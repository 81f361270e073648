//! The per-thread stack of device code: how big the runtime makes it on a
//! device before the code of an image runs there.
//!
//! CUDA gives each GPU thread a 1 KiB stack unless told otherwise, and
//! grows it by itself for a kernel whose stack ptxas could size. Recursive
//! device code (an image marked `PTXRT_IMAGE_RECURSIVE` by accc, which sees
//! the cycle in the call graph) has no size ptxas knows: its depth is known
//! only at run time, so, as nvcc-compiled programs call
//! `cudaDeviceSetLimit(cudaLimitStackSize)` and nvc's runtime reads
//! `NV_ACC_CUDA_STACKSIZE`, the runtime raises the limit to
//! [`RECURSION_STACK`] before such code runs. `PTXRT_STACK_SIZE` (or nvc's
//! `NV_ACC_CUDA_STACKSIZE`; accc's own name wins when both are set) sets the
//! limit for every image instead, recursive or not.
//!
//! Owns: [`RECURSION_STACK`], the parsing of the two variables
//! ([`parse`], [`from_env`]) and [`ensure`], which sets a device's limit
//! through its plugin (`set_stack_size`) when it differs from what the
//! images loaded there want. May call: [`crate::device`] (the device's
//! plugin and the limit it last set), [`crate::notify`].

use crate::device::DeviceState;
use crate::notify;
use std::sync::OnceLock;

/// The stack each thread gets for recursive device code when no variable
/// says otherwise: 32 KiB, room for 2048 nested calls of the 16-byte frames
/// ptxas gives small recursive routines (tests/programs/routine_seq.c:
/// about 1200 calls deep, 16 bytes each). The driver reserves it for every
/// thread the device can hold at once (an H100: 132 SMs × 2048 threads ×
/// 32 KiB ≈ 8.9 GB), so it is not raised further by default.
pub const RECURSION_STACK: usize = 32 << 10;

/// The variables that set the stack, in the order they are looked at.
pub const VARIABLES: [&str; 2] = ["PTXRT_STACK_SIZE", "NV_ACC_CUDA_STACKSIZE"];

/// The bytes `value` of variable `name` says: a decimal number of bytes,
/// or of KiB or MiB with a `K` or `M` suffix (`16384`, `64K`, `1M`); the
/// error names the variable and the value.
pub fn parse(name: &str, value: &str) -> Result<usize, String> {
    let v = value.trim();
    let (digits, unit) = match v.char_indices().last() {
        Some((i, 'k' | 'K')) => (&v[..i], 1usize << 10),
        Some((i, 'm' | 'M')) => (&v[..i], 1usize << 20),
        _ => (v, 1),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .filter(|&n| n > 0 && n <= 1 << 30)
        .ok_or_else(|| {
            format!(
                "{name}={value}: not a stack size (bytes from 1 to 1G, with an optional K or M suffix: 16384, 64K, 1M)"
            )
        })
}

/// The stack the environment asks for (`None`: neither variable is set),
/// read once.
pub fn from_env() -> Result<Option<usize>, String> {
    static S: OnceLock<Result<Option<usize>, String>> = OnceLock::new();
    S.get_or_init(|| {
        VARIABLES
            .iter()
            .find_map(|&n| std::env::var(n).ok().map(|v| parse(n, &v)))
            .transpose()
    })
    .clone()
}

/// The stack images want: `env` (the environment's) when set, else
/// [`RECURSION_STACK`] when one of them is recursive, else nothing (CUDA's
/// own).
pub fn wanted(env: Option<usize>, recursive: bool) -> Option<usize> {
    env.or(recursive.then_some(RECURSION_STACK))
}

/// Sets the stack of `dev`'s threads before code of images that are
/// `recursive` (or not) runs there, when the environment or the images ask
/// for a size the device does not have yet. A recursive image never lowers
/// a larger limit set for an earlier one.
pub fn ensure(dev: &mut DeviceState, recursive: bool) -> Result<(), String> {
    let env = from_env()?;
    let Some(want) = wanted(env, recursive) else {
        return Ok(());
    };
    let enough = match dev.stack {
        Some(now) if env.is_some() => now == want,
        Some(now) => now >= want,
        None => false,
    };
    if enough {
        return Ok(());
    }
    // SAFETY: a plain call on the device's plugin.
    let set = unsafe { dev.plugin.set_stack_size(dev.ordinal, want) }
        .map_err(|e| format!("setting the stack of each device thread to {want} bytes: {e}"))?;
    notify::debug(&format!(
        "stack of each thread of device {}: {set} bytes{}",
        dev.ordinal,
        if env.is_some() {
            " (from the environment)"
        } else {
            " (recursive device code)"
        }
    ));
    dev.stack = Some(want);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_bytes_kib_and_mib() {
        assert_eq!(parse("PTXRT_STACK_SIZE", "16384"), Ok(16384));
        assert_eq!(parse("PTXRT_STACK_SIZE", " 64K "), Ok(64 << 10));
        assert_eq!(parse("NV_ACC_CUDA_STACKSIZE", "1m"), Ok(1 << 20));
        assert_eq!(parse("PTXRT_STACK_SIZE", "1G").unwrap_err(), "PTXRT_STACK_SIZE=1G: not a stack size (bytes from 1 to 1G, with an optional K or M suffix: 16384, 64K, 1M)");
        for bad in [
            "",
            "0",
            "-1",
            "12x",
            "K",
            "2048M",
            "99999999999999999999",
            "1.5K",
        ] {
            let e = parse("NV_ACC_CUDA_STACKSIZE", bad).unwrap_err();
            assert!(
                e.starts_with(&format!("NV_ACC_CUDA_STACKSIZE={bad}: not a stack size")),
                "{e}"
            );
        }
    }

    #[test]
    fn recursion_raises_the_stack_unless_the_environment_says() {
        assert_eq!(wanted(None, false), None);
        assert_eq!(wanted(None, true), Some(RECURSION_STACK));
        assert_eq!(wanted(Some(4096), true), Some(4096));
        assert_eq!(wanted(Some(4096), false), Some(4096));
    }

    #[test]
    fn the_plugin_is_asked_once_per_device() {
        if from_env() != Ok(None) {
            return; // the tester's environment sets the stack
        }
        let mut dev = crate::fake::device_with(crate::fake::fns());
        crate::fake::calls();
        ensure(&mut dev, false).unwrap();
        assert!(crate::fake::calls().is_empty());
        ensure(&mut dev, true).unwrap();
        assert_eq!(crate::fake::calls(), ["stack 32768"]);
        ensure(&mut dev, true).unwrap();
        ensure(&mut dev, false).unwrap();
        assert!(crate::fake::calls().is_empty());
        assert_eq!(dev.stack, Some(RECURSION_STACK));
    }
}
