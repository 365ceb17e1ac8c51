//! Text helpers shared by every stage: folding for matching ([`fold`]), comments in SQL
//! ([`sql`]), month and weekday names
//! ([`calendar`]), the split of free text
//! into sentences, clauses and query segments ([`clauses`]), words with their byte ranges
//! ([`words`]) and the bounded windows a long text is read in ([`window`]). Nothing here knows
//! about personal data or tools.

pub mod calendar;
pub mod clauses;
pub mod fold;
pub mod sql;
pub mod window;
pub mod words;
