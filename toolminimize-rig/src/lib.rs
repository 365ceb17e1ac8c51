//! Wraps rig-core agents and tools so every tool call is minimized (coming next).
#![forbid(unsafe_code)]
