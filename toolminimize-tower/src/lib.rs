//! A tower `Layer` that minimizes tool calls in any tower service stack (coming next).
#![forbid(unsafe_code)]
