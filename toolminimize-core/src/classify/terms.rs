//! The policy's allow-list (never PSD) and deny-list (always PSD), matched case-insensitively
//! on word boundaries.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use crate::error::{Error, ErrorKind};
use crate::item::{Finding, PsdKind};
use crate::policy::Policy;
use crate::taxonomy::Category;

pub(crate) struct PolicyTerms {
    allow: Option<AhoCorasick>,
    deny: Option<(AhoCorasick, Vec<Category>)>,
}

fn automaton<'a>(terms: impl IntoIterator<Item = &'a str>) -> Result<AhoCorasick, Error> {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .build(terms)
        .map_err(|e| Error::new(ErrorKind::InvalidPolicy, format!("allow/deny list: {e}")))
}

fn on_word_boundary(text: &str, start: usize, end: usize) -> bool {
    let before = text.get(..start).and_then(|s| s.chars().next_back());
    let after = text.get(end..).and_then(|s| s.chars().next());
    !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
}

impl PolicyTerms {
    pub(crate) fn build(policy: &Policy) -> Result<Self, Error> {
        let allow_terms: Vec<&str> = policy
            .allow
            .iter()
            .map(String::as_str)
            .filter(|t| !t.trim().is_empty())
            .collect();
        let deny_terms: Vec<&crate::policy::DenyTerm> = policy
            .deny
            .iter()
            .filter(|t| !t.term.trim().is_empty())
            .collect();
        Ok(PolicyTerms {
            allow: if allow_terms.is_empty() {
                None
            } else {
                Some(automaton(allow_terms)?)
            },
            deny: if deny_terms.is_empty() {
                None
            } else {
                Some((
                    automaton(deny_terms.iter().map(|t| t.term.as_str()))?,
                    deny_terms.iter().map(|t| t.category).collect(),
                ))
            },
        })
    }

    /// Adds deny-list findings.
    pub(crate) fn deny(&self, text: &str, out: &mut Vec<Finding>) {
        if let Some((ac, cats)) = &self.deny {
            for m in ac.find_iter(text) {
                if on_word_boundary(text, m.start(), m.end())
                    && let Some(c) = cats.get(m.pattern().as_usize())
                {
                    out.push(Finding::new(
                        m.range(),
                        PsdKind::Custom(*c),
                        1.0,
                        "policy:deny",
                    ));
                }
            }
        }
    }

    /// Drops findings that lie inside an allow-listed term.
    pub(crate) fn allow(&self, text: &str, out: &mut Vec<Finding>) {
        if let Some(ac) = &self.allow {
            let ranges: Vec<_> = ac
                .find_iter(text)
                .filter(|m| on_word_boundary(text, m.start(), m.end()))
                .map(|m| m.range())
                .collect();
            if !ranges.is_empty() {
                out.retain(|f| {
                    !ranges
                        .iter()
                        .any(|r| r.start <= f.span.start && f.span.end <= r.end)
                });
            }
        }
    }
}
