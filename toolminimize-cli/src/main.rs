//! The `toolminimize` command.
#![forbid(unsafe_code)]

fn main() {}
