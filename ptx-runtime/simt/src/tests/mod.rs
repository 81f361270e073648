//! Tests of the emulator on hand-written bytecode, by concern: what it
//! computes and the faults it reports ([`compute`]), the synchronisation
//! it honours ([`sync`]), the races it reports ([`races`]); the small
//! assembler and test device they share are [`harness`]'s.

mod compute;
mod harness;
mod races;
mod sync;
