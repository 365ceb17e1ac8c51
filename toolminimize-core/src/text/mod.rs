//! Text helpers shared by every stage: the characters around a byte offset ([`chars`]),
//! folding for matching ([`fold`]), comments in SQL
//! ([`sql`]), month and weekday names
//! ([`calendar`]), the split of free text
//! into sentences, clauses and query segments ([`clauses`]), where it holds code ([`code`]), words with their byte ranges
//! ([`words`]), the HTML tags that end a paragraph or a line ([`markup`]), texts that are
//! themselves data, JSON or `KEY=value` lines ([`document`]), the
//! bounded windows a long text is read in ([`window`]) and the titles written
//! before a name ([`titles`]), the query parameters of a URL ([`url`]), which script a
//! character belongs to ([`script`]) and short strings collected without a heap allocation
//! ([`inline`]), sets of byte ranges asked about overlap and containment ([`spans`]) and the
//! values documentation publishes as examples, which belong to nobody ([`examples`]).
//! Nothing here knows about tools or decides what personal data is.

pub mod calendar;
pub mod chars;
pub mod clauses;
pub mod code;
pub mod document;
pub mod examples;
pub mod fold;
pub mod inline;
pub mod markup;
pub mod script;
pub mod spans;
pub mod sql;
pub mod titles;
pub mod url;
pub mod window;
pub mod words;
