//! Text helpers shared by every stage: folding for matching ([`fold`]) and the split of free
//! text into sentences, clauses and query segments ([`clauses`]). Nothing here knows about
//! personal data or tools.

pub mod clauses;
pub mod fold;
