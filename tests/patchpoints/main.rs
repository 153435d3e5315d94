//! Patch points: anyregcc, generated programs, live-outs, and regions patched in linked programs.

#[path = "../generator/mod.rs"]
mod generator;
#[path = "../support/mod.rs"]
mod support;

mod anyreg;
mod generated;
mod linked;
mod live_outs;
mod live_outs_llc;
mod vectors;
