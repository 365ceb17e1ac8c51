//! Rewrite: removal, generalization, substitution and truncation, each correct for its data,
//! and the output kept valid against the tool's schema.
