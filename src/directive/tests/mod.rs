//! Unit tests of the directive parser: round trips, AST shapes, errors, and
//! a no-panic sweep over malformed input.

mod errors;
mod fuzz;
mod roundtrip;
mod shapes;
