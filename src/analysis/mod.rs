//! Analyses over the loop IR: questions `schedule` (and later the back ends)
//! ask about a module, answered from the IR alone — never from C text.
//!
//! Owns nothing itself; each file owns one question. May call: `ir` only.
//! * `affine.rs` — integer expressions as affine forms over locals, and
//!   their C-like rendering for remarks;
//! * `body.rs` — one ordered walk over a loop body: its memory accesses
//!   (resolved through the temporaries lowering introduces), the locals it
//!   assigns, what may not run in parallel (calls, early exits);
//! * `reduce.rs` — reduction recognition (`s = s op e`);
//! * `depend.rs` — the dependence test of a loop (GCD and Banerjee-style
//!   bounds on affine subscripts, scalars, aliasing).

pub mod affine;
pub mod body;
pub mod depend;
pub mod reduce;
