//! Person names written in Japanese script, where capitalisation says nothing and words are
//! not separated by spaces.
//!
//! A name stands at the start of a run of kanji (after a particle, punctuation, a space or the
//! start of the text) and is judged by the family and given names of `data/names/ja_*.txt`
//! (PyPI `gimei`; see `data/names/README.md`) and by what follows it:
//! - a family name and a given name that end the run: `山田太郎`, `山田 太郎`; a given name
//!   not listed counts when it is two characters that end as given names do (`…子`, `…郎`);
//! - a family name alone before an honorific: `田中さん`, `森田様`, `佐藤先生`;
//! - a given name alone before a familiar honorific: `翔太くん`, `美咲ちゃん`;
//! - a given name after a kinship word and a middle dot: `弟・翔太`.
//!
//! A run that goes on after the name (`山田電機`, `田中製作所`) is not a name.

use std::ops::Range;
use std::sync::LazyLock;

use rustc_hash::FxHashSet as HashSet;

const FAMILY: &str = include_str!("../../../data/names/ja_family.txt");
const GIVEN: &str = include_str!("../../../data/names/ja_given.txt");

struct Lists {
    family: HashSet<&'static str>,
    given: HashSet<&'static str>,
}

static LISTS: LazyLock<Lists> = LazyLock::new(|| {
    let read = |s: &'static str| -> HashSet<&'static str> {
        s.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    };
    Lists {
        family: read(FAMILY),
        given: read(GIVEN),
    }
});

/// Honorifics written after a family name or a full name.
const HONORIFICS: &[&str] = &[
    "さん",
    "様",
    "さま",
    "氏",
    "先生",
    "くん",
    "君",
    "ちゃん",
    "殿",
];

/// Familiar honorifics written after a given name.
const FAMILIAR: &[&str] = &["さん", "くん", "ちゃん", "君"];

/// Kinship words a given name follows after a middle dot (`弟・翔太`).
const KIN: &[&str] = &[
    "弟", "兄", "姉", "妹", "息子", "娘", "夫", "妻", "母", "父", "祖母", "祖父", "孫", "長男",
    "長女", "次男", "次女", "甥", "姪",
];

/// Last characters of given names (`…子`, `…郎`, `…美`): a two-character given name that
/// the list lacks still reads as one after a family name.
const GIVEN_ENDINGS: &[char] = &[
    '子', '郎', '美', '恵', '雄', '夫', '男', '太', '介', '彦', '也', '哉', '奈', '香', '代', '江',
    '枝', '乃', '穂', '輔', '樹', '菜', '希', '紀', '里', '絵', '織', '平', '吾', '司',
];

/// First characters of common nouns that end like given names (`電子`, `様子`, `原子`).
const NOT_GIVEN_START: &[char] = &['電', '様', '原', '分', '粒', '帽', '椅', '障', '因', '調'];

/// A kanji, or the iteration mark that repeats one (`佐々木`).
fn is_han(c: char) -> bool {
    crate::text::script::is_han(c) || c == '々'
}

/// Whether `text` holds any kanji (the detector's gate); an ASCII text is told apart without
/// decoding it.
pub(super) fn may_hold(text: &str) -> bool {
    !text.is_ascii() && text.chars().any(is_han)
}

/// A name found: its span and confidence.
pub(super) struct JaName {
    pub(super) span: Range<usize>,
    pub(super) confidence: f32,
}

/// The Japanese names in `text`.
pub(super) fn find(text: &str) -> Vec<JaName> {
    let mut out = Vec::new();
    if !may_hold(text) {
        return out;
    }
    let l = &*LISTS;
    let mut prev: Option<char> = None;
    let mut skip_to = 0usize;
    for (i, c) in text.char_indices() {
        let p = prev;
        prev = Some(c);
        if i < skip_to || !is_han(c) || p.is_some_and(is_han) {
            continue;
        }
        // The run of kanji starting here.
        let run_end = text
            .get(i..)
            .and_then(|t| {
                t.char_indices()
                    .find(|&(_, ch)| !is_han(ch))
                    .map(|(j, _)| i + j)
            })
            .unwrap_or(text.len());
        let Some(run) = text.get(i..run_end) else {
            continue;
        };
        let after = text.get(run_end..).unwrap_or_default();
        if let Some(found) = judge(l, text, i, run, after, p) {
            skip_to = found.span.end;
            out.push(found);
        }
    }
    out
}

fn judge(
    l: &Lists,
    text: &str,
    at: usize,
    run: &str,
    after: &str,
    before: Option<char>,
) -> Option<JaName> {
    let n = run.chars().count();
    let honorific = HONORIFICS.iter().any(|h| after.starts_with(h));
    // A given name after a kinship word and a middle dot: "弟・翔太".
    if before == Some('・') && n >= 2 && l.given.contains(run) {
        let head = text
            .get(..at.saturating_sub('・'.len_utf8()))
            .unwrap_or_default();
        if KIN.iter().any(|k| head.ends_with(k)) {
            return Some(JaName {
                span: at..at + run.len(),
                confidence: 0.8,
            });
        }
    }
    // Family name + given name, ending the run.
    if (2..=5).contains(&n) {
        for (fi, _) in run.char_indices().skip(1).take(3) {
            let (fam, giv) = (run.get(..fi)?, run.get(fi..)?);
            let gn = giv.chars().count();
            if !l.family.contains(fam) || gn > 3 || fam.chars().count() + gn < 3 {
                continue;
            }
            let listed = l.given.contains(giv);
            let shaped = gn == 2
                && giv
                    .chars()
                    .last()
                    .is_some_and(|c| GIVEN_ENDINGS.contains(&c))
                && giv
                    .chars()
                    .next()
                    .is_some_and(|c| !NOT_GIVEN_START.contains(&c));
            if listed || shaped {
                return Some(JaName {
                    span: at..at + run.len(),
                    confidence: if honorific || listed { 0.8 } else { 0.7 },
                });
            }
        }
    }
    // A family name alone before an honorific: "田中さん".
    if n >= 2 && honorific && l.family.contains(run) {
        return Some(JaName {
            span: at..at + run.len(),
            confidence: 0.75,
        });
    }
    // Family name, a space, a given name: "山田 太郎".
    if n >= 2
        && l.family.contains(run)
        && let Some(rest) = after.strip_prefix([' ', '\u{3000}'])
    {
        let gl = rest.find(|c: char| !is_han(c)).unwrap_or(rest.len());
        let giv = rest.get(..gl).unwrap_or_default();
        if (1..=3).contains(&giv.chars().count()) && l.given.contains(giv) {
            let end = at + run.len() + (after.len() - rest.len()) + gl;
            return Some(JaName {
                span: at..end,
                confidence: 0.8,
            });
        }
    }
    // A given name before a familiar honorific: "翔太くん".
    if n >= 2 && FAMILIAR.iter().any(|h| after.starts_with(h)) && l.given.contains(run) {
        return Some(JaName {
            span: at..at + run.len(),
            confidence: 0.7,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(t: &str) -> Vec<&str> {
        find(t).into_iter().map(|n| &t[n.span]).collect()
    }

    #[test]
    fn names_by_structure() {
        assert_eq!(names("担当は佐藤健一です。"), ["佐藤健一"]);
        assert_eq!(names("明日は田中さんが来ます"), ["田中"]);
        assert_eq!(names("面会：弟・翔太"), ["翔太"]);
        assert_eq!(names("受付 山本 美咲 様"), ["山本 美咲"]);
        assert_eq!(names("伊藤和子の件"), ["伊藤和子"]);
    }

    #[test]
    fn words_that_only_start_like_names_are_not_names() {
        assert!(names("山田電機の店舗で購入").is_empty());
        assert!(names("田中製作所に発注").is_empty());
        assert!(names("東京都庁で会議").is_empty());
        assert!(names("母の希望を聞く").is_empty());
        assert!(names("中村橋駅から徒歩5分").is_empty());
        assert!(names("no kanji at all").is_empty());
    }
}
