//! Entry points into single detectors for the crate's own benchmarks (`benches/`). Not a
//! public API: it changes without notice.

pub use crate::classify::lexicon::{self, Lexicon};
pub use crate::classify::{Classifier, encoded, names, structured};
