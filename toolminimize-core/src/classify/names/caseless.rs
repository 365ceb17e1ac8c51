//! Person names written in scripts without capital letters: Arabic (and Persian), Hebrew,
//! Devanagari, Korean and Chinese, judged by the given and family names of
//! `data/names/caseless.tsv` (Faker's person providers; see `data/names/README.md`) and by
//! the words around them.
//!
//! - **Arabic, Hebrew, Devanagari** (words between spaces): a listed given name followed by
//!   a listed family name (`נועה פרידמן`, `राहुल कुलकर्णी`), or, after a word that introduces a
//!   person (`أخي`, `מר`, `श्री`), a given name alone or two of them (`اخي محمد حسن`); a
//!   one-letter conjunction or preposition glued to the first word is read off (`ومحمد`,
//!   `לנועה`). A given name with no such word is not enough: many are everyday words too
//!   (`أمل كبير` is "great hope", `שיר` is "song", `आशा` is "hope").
//! - **Korean**: a word of three syllables whose first is a listed family name, with an
//!   honorific glued to it or right after it (`김하늘 씨`, `박지성님`), or whose last two are
//!   a listed given name (`김도윤`).
//! - **Chinese**: a listed family name and one or two characters, after a word that
//!   introduces a person (`用户张伟`, `联系人：李娜`) or before a title (`王伟先生`, `陈老师`), or
//!   with a listed given name of two characters (`陈志明`) that a non-Han character or a
//!   function character ends.
//! - **Thai** (words written together, phrases parted by spaces): after a title (`คุณ`, `นาย`,
//!   `นางสาว`, `ด.ญ.`) or a kin word (`พี่`, `น้อง`), a listed given name; after a title other
//!   than `คุณ` that opens a phrase, also a run of Thai letters of two to twelve that a space
//!   or a sign ends; and a listed given name before a listed family name. A listed family name
//!   a space after the given name joins it.

use std::ops::Range;
use std::sync::LazyLock;

use rustc_hash::FxHashSet as HashSet;

use crate::text::script::{is_arabic, is_devanagari, is_han, is_hangul, is_hebrew};

const TABLE: &str = include_str!("../../../data/names/caseless.tsv");

/// Given and family names of one script.
#[derive(Default)]
struct Names {
    given: HashSet<&'static str>,
    family: HashSet<&'static str>,
}

struct Lists {
    arab: Names,
    hebr: Names,
    deva: Names,
    hang: Names,
    hani: Names,
    thai: Names,
}

static LISTS: LazyLock<Lists> = LazyLock::new(|| {
    let mut l = Lists {
        arab: Names::default(),
        hebr: Names::default(),
        deva: Names::default(),
        hang: Names::default(),
        hani: Names::default(),
        thai: Names::default(),
    };
    for line in TABLE.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split('\t');
        let (Some(script), Some(role), Some(name)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        let names = match script {
            "arab" => &mut l.arab,
            "hebr" => &mut l.hebr,
            "deva" => &mut l.deva,
            "hang" => &mut l.hang,
            "hani" => &mut l.hani,
            "thai" => &mut l.thai,
            _ => continue,
        };
        match role {
            "given" => names.given.insert(name),
            _ => names.family.insert(name),
        };
    }
    l
});

/// A name found in caseless script.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CaselessName {
    pub(crate) span: Range<usize>,
    pub(crate) confidence: f32,
}

/// Person names in the caseless scripts of `text` (see the module docs).
pub(crate) fn find(text: &str) -> Vec<CaselessName> {
    let mut out = Vec::new();
    if text.is_ascii() {
        return out;
    }
    let (mut arab, mut hebr, mut deva, mut hang, mut hani) = (false, false, false, false, false);
    let mut thai_script = false;
    for c in text.chars().filter(|c| !c.is_ascii()) {
        thai_script |= is_thai(c);
        arab |= is_arabic(c);
        hebr |= is_hebrew(c);
        deva |= is_devanagari(c);
        hang |= is_hangul(c);
        hani |= is_han(c);
    }
    let l = &*LISTS;
    if arab {
        spaced(
            text,
            is_arabic,
            &l.arab,
            arabic_key,
            ARABIC_CLITICS,
            ARABIC_BEFORE,
            &mut out,
        );
    }
    if hebr {
        spaced(
            text,
            is_hebrew,
            &l.hebr,
            str::to_owned,
            HEBREW_CLITICS,
            HEBREW_BEFORE,
            &mut out,
        );
    }
    if deva {
        spaced(
            text,
            is_devanagari,
            &l.deva,
            str::to_owned,
            &[],
            DEVANAGARI_BEFORE,
            &mut out,
        );
    }
    if hang {
        korean(text, &l.hang, &mut out);
    }
    if hani {
        chinese(text, &l.hani, &mut out);
    }
    if thai_script {
        thai(text, &l.thai, &mut out);
    }
    out
}

/// One-letter conjunctions and prepositions Arabic glues to the next word (and, with, for,
/// then, as).
const ARABIC_CLITICS: &[char] = &['و', 'ب', 'ل', 'ف', 'ك'];
/// One-letter conjunctions, prepositions and articles Hebrew glues to the next word.
const HEBREW_CLITICS: &[char] = &['ו', 'ה', 'ל', 'ב', 'מ', 'ש', 'כ'];

/// An Arabic word as the list holds it: diacritics stripped, the forms of alef unified.
fn arabic_key(w: &str) -> String {
    w.chars()
        .filter(|&c| !matches!(c, '\u{064B}'..='\u{065F}' | '\u{0670}'))
        .map(|c| match c {
            'أ' | 'إ' | 'آ' => 'ا',
            c => c,
        })
        .collect()
}

/// The words of `text` written in one script: `(start, end)` of each.
fn script_words(text: &str, in_script: fn(char) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        // Combining marks (Devanagari vowel signs, Arabic diacritics) stay inside the word.
        let inside = in_script(c) || start.is_some() && is_mark(c);
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

fn is_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{200C}' | '\u{200D}')
}

/// Where the listed name in `word` starts, if the word is one (`None` when it is not): the
/// word itself, or the word without one glued clitic.
fn listed_at(
    word: &str,
    set: &HashSet<&'static str>,
    key: fn(&str) -> String,
    clitics: &[char],
) -> Option<usize> {
    if set.contains(key(word).as_str()) {
        return Some(0);
    }
    let first = word.chars().next()?;
    let rest = word.get(first.len_utf8()..)?;
    (clitics.contains(&first) && rest.chars().count() >= 2 && set.contains(key(rest).as_str()))
        .then_some(first.len_utf8())
}

/// Second words of Arabic compound given names ("… الدين" "of the faith", "… الله" "of God"):
/// after a given name, the pair is a name (`رحيم الدين`, `فضل الله`).
const ARABIC_NAME_TAILS: &[&str] = &["الدين", "الله", "الرحمن"];

/// Words after which a name follows (titles, kin, "my name"), by script.
const ARABIC_BEFORE: &[&str] = &[
    "السيد",
    "السيدة",
    "الاستاذ",
    "الاستاذة",
    "الدكتور",
    "الدكتورة",
    "اخي",
    "اختي",
    "ابني",
    "ابنتي",
    "بنتي",
    "زوجي",
    "زوجتي",
    "صديقي",
    "صديقتي",
    "زميلي",
    "زميلتي",
    "اسمي",
    "المريض",
    "المريضة",
    "العميل",
    "العميلة",
];
const HEBREW_BEFORE: &[&str] = &[
    "מר",
    "גברת",
    "ד\"ר",
    "אחי",
    "אחותי",
    "בני",
    "בתי",
    "בעלי",
    "אשתי",
    "חברי",
    "חברתי",
    "שמי",
];
const DEVANAGARI_BEFORE: &[&str] = &[
    "श्री",
    "श्रीमती",
    "डॉ",
    "डॉक्टर",
    "भाई",
    "बहन",
    "बेटा",
    "बेटी",
    "पति",
    "पत्नी",
    "नाम",
];

/// Listed words in a row: a given name then a family name, or, after a word that
/// introduces a person ("أخي", "מר", "श्री"), a given name alone or two given names (many
/// given names are everyday words too: "أمل كبير" is "great hope").
fn spaced(
    text: &str,
    in_script: fn(char) -> bool,
    names: &Names,
    key: fn(&str) -> String,
    clitics: &[char],
    before: &[&str],
    out: &mut Vec<CaselessName>,
) {
    let words = script_words(text, in_script);
    let mut k = 0;
    while k < words.len() {
        let Some(&(s1, e1)) = words.get(k) else {
            break;
        };
        let w1 = text.get(s1..e1).unwrap_or_default();
        let introduced = k
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|&(ps, pe)| {
                text.get(pe..s1) == Some(" ")
                    && text
                        .get(ps..pe)
                        .is_some_and(|w| before.contains(&key(w).as_str()))
            });
        let next = words
            .get(k + 1)
            .copied()
            .filter(|&(s2, _)| text.get(e1..s2) == Some(" "));
        let w2 = next
            .and_then(|(s2, e2)| text.get(s2..e2))
            .unwrap_or_default();
        let k2 = key(w2);
        // A given name of two words ("تاج الدين") counts as a given name and a family name.
        let pair_listed = |w1: &str| {
            !w2.is_empty() && names.given.contains(format!("{} {}", key(w1), k2).as_str())
        };
        let Some(at) = listed_at(w1, &names.given, key, clitics).or(pair_listed(w1).then_some(0))
        else {
            k += 1;
            continue;
        };
        let family_next = names.family.contains(k2.as_str())
            || pair_listed(w1.get(at..).unwrap_or_default())
            || ARABIC_NAME_TAILS.contains(&k2.as_str());
        let given_next = names.given.contains(k2.as_str());
        if introduced && !family_next && !given_next {
            out.push(CaselessName {
                span: s1 + at..e1,
                confidence: 0.65,
            });
            k += 1;
            continue;
        }
        let second = family_next || introduced && given_next;
        if let (Some((_, e2)), true) = (next, second) {
            // A third listed word (a grandfather's or family name) belongs to the name too.
            let mut end = e2;
            if let Some(&(s3, e3)) = words.get(k + 2) {
                let w3 = text.get(s3..e3).unwrap_or_default();
                if text.get(e2..s3) == Some(" ")
                    && (names.family.contains(key(w3).as_str())
                        || names.given.contains(key(w3).as_str()))
                {
                    end = e3;
                    k += 1;
                }
            }
            out.push(CaselessName {
                span: s1 + at..end,
                confidence: 0.75,
            });
            k += 2;
        } else {
            k += 1;
        }
    }
}

/// Honorifics and particles written after a Korean name, glued or after a space.
const KO_HONORIFICS: &[&str] = &["씨", "님", "선생님", "께서", "께"];
/// Particles a Korean name takes, glued to it.
const KO_PARTICLES: &[&str] = &[
    "에게", "한테", "이", "가", "은", "는", "을", "를", "의", "와", "과", "도", "이랑", "랑",
];

fn korean(text: &str, names: &Names, out: &mut Vec<CaselessName>) {
    for (s, e) in script_words(text, is_hangul) {
        let word = text.get(s..e).unwrap_or_default();
        let syl: Vec<(usize, char)> = word.char_indices().collect();
        let Some(&(_, family)) = syl.first() else {
            continue;
        };
        if syl.len() < 3
            || !names
                .family
                .contains(word.get(..family.len_utf8()).unwrap_or_default())
        {
            continue;
        }
        let name_end = syl.get(3).map_or(word.len(), |&(b, _)| b);
        let tail = word.get(name_end..).unwrap_or_default();
        let given = word.get(family.len_utf8()..name_end).unwrap_or_default();
        let honorific_glued = KO_HONORIFICS.contains(&tail);
        let honorific_after = tail.is_empty()
            && KO_HONORIFICS.iter().any(|h| {
                text.get(e..)
                    .and_then(|r| r.strip_prefix(' '))
                    .is_some_and(|r| r.starts_with(h))
            });
        let listed =
            names.given.contains(given) && (tail.is_empty() || KO_PARTICLES.contains(&tail));
        if honorific_glued || honorific_after || listed {
            out.push(CaselessName {
                span: s..s + name_end,
                confidence: if listed { 0.75 } else { 0.7 },
            });
        }
    }
}

/// Words after which a Chinese name follows (a user, a patient, a contact, kin).
const ZH_BEFORE: &[&str] = &[
    "用户",
    "客户",
    "患者",
    "病人",
    "同事",
    "朋友",
    "老公",
    "老婆",
    "丈夫",
    "妻子",
    "儿子",
    "女儿",
    "我叫",
    "名叫",
    "叫做",
    "姓名：",
    "姓名:",
    "联系人：",
    "联系人:",
    "联系人",
    "收件人：",
    "收件人:",
    "收件人",
    "收货人：",
    "收货人:",
    "收货人",
    "乘客",
    "员工",
    "学生",
    "室友",
    "母亲",
    "父亲",
    "妈妈",
    "爸爸",
    "哥哥",
    "姐姐",
    "弟弟",
    "妹妹",
    "孩子",
    "男朋友",
    "女朋友",
    "男友",
    "女友",
    "爷爷",
    "奶奶",
    "外婆",
    "外公",
    "邻居",
    "房东",
    "租客",
    "护士",
];
/// Titles written after a Chinese name.
const ZH_AFTER: &[&str] = &[
    "先生", "女士", "小姐", "老师", "医生", "同学", "经理", "阿姨", "叔叔", "律师", "教授",
];
/// Characters that may end a name inside a run of Chinese (said, of, at, is, and, to, …).
const ZH_FUNCTION: &[char] = &[
    '的', '说', '在', '是', '和', '给', '让', '对', '也', '要', '会', '已', '今', '明', '昨', '吗',
    '呢', '了', '跟', '与', '被', '把', '从', '去', '来', '都', '还', '不', '没',
];

fn chinese(text: &str, names: &Names, out: &mut Vec<CaselessName>) {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let at = |k: usize| chars.get(k).map(|&(_, c)| c);
    let byte = |k: usize| chars.get(k).map_or(text.len(), |&(b, _)| b);
    let mut k = 0;
    while k < chars.len() {
        if !at(k).is_some_and(is_han) {
            k += 1;
            continue;
        }
        // A family name of one character, or of two (`欧阳`).
        let family = |n: usize| {
            k + n <= chars.len()
                && text
                    .get(byte(k)..byte(k + n))
                    .is_some_and(|f| names.family.contains(f))
        };
        let fam_len = if family(2) {
            2
        } else if family(1) {
            1
        } else {
            k += 1;
            continue;
        };
        // The word that introduces the person may stand a space apart (`妻子 王丽`).
        let before = text.get(..byte(k)).unwrap_or_default().trim_end();
        let introduced = ZH_BEFORE.iter().any(|w| before.ends_with(w));
        let mut found = None;
        for given_len in [2usize, 1] {
            let end = k + fam_len + given_len;
            if (k + fam_len..end).any(|q| !at(q).is_some_and(is_han)) {
                continue;
            }
            let rest = text.get(byte(end)..).unwrap_or_default();
            let titled = ZH_AFTER.iter().any(|t| rest.starts_with(t));
            let given = text.get(byte(k + fam_len)..byte(end)).unwrap_or_default();
            let bounded = at(end).is_none_or(|n| !is_han(n) || ZH_FUNCTION.contains(&n));
            let listed_given = given_len == 2 && names.given.contains(given);
            let listed = listed_given && bounded;
            // After a word that introduces a person, a listed given name of two characters
            // ends the name even where a verb follows it (`我妈妈李秀英住院了`).
            if (introduced && (bounded || listed_given)) || titled || listed {
                found = Some(end);
                break;
            }
        }
        match found {
            Some(end) => {
                out.push(CaselessName {
                    span: byte(k)..byte(end),
                    confidence: 0.7,
                });
                k = end;
            }
            None => k += 1,
        }
    }
}

/// Whether `c` is a Thai letter, vowel sign or tone mark.
fn is_thai(c: char) -> bool {
    matches!(c, '\u{0E01}'..='\u{0E4E}')
}

/// Titles that open a Thai name (Mr, Mrs, Miss, the polite "Khun", boy, girl), longest first.
const TH_TITLES: &[&str] = &[
    "เด็กหญิง",
    "เด็กชาย",
    "นางสาว",
    "คุณ",
    "นาย",
    "นาง",
    "น.ส.",
    "ด.ช.",
    "ด.ญ.",
];
/// Kin words said before a name ("elder sibling", "younger sibling"); before other words
/// they are kin ("พี่ชาย", an elder brother): only a listed given name counts after them.
const TH_KIN: &[&str] = &["พี่", "น้อง"];

/// The most characters of a listed Thai name (a test checks the table against it).
const TH_LONGEST_NAME: usize = 24;

/// The longest listed name of `names` that `rest` opens with, in bytes.
fn listed_prefix(rest: &str, names: &HashSet<&'static str>) -> Option<usize> {
    // A name is read at most as far as the longest listed one (a run of Thai text may be a
    // whole paragraph).
    let ends: Vec<usize> = rest
        .char_indices()
        .take_while(|&(_, c)| is_thai(c))
        .take(TH_LONGEST_NAME)
        .map(|(i, c)| i + c.len_utf8())
        .collect();
    ends.into_iter()
        .rev()
        .find(|&e| rest.get(..e).is_some_and(|p| names.contains(p)))
}

fn thai(text: &str, names: &Names, out: &mut Vec<CaselessName>) {
    let mut covered = 0usize;
    let push = |out: &mut Vec<CaselessName>, start: usize, mut end: usize, listed: bool| {
        // A listed family name a space after the given name is part of the name.
        if let Some(rest) = text.get(end..).and_then(|r| r.strip_prefix(' '))
            && let Some(f) = listed_prefix(rest, &names.family)
        {
            end += 1 + f;
        }
        out.push(CaselessName {
            span: start..end,
            confidence: if listed { 0.8 } else { 0.7 },
        });
        end
    };
    for (i, c) in text.char_indices() {
        if i < covered || !is_thai(c) {
            continue;
        }
        // Whether the word opens a phrase (nothing Thai right before it): Thai writes words
        // together ("ติดต่อคุณ…", contact Khun …), so a title inside a run still counts before
        // a listed name, but only a title that opens a phrase takes an unlisted one.
        let opens = !text
            .get(..i)
            .and_then(|b| b.chars().next_back())
            .is_some_and(is_thai);
        let rest = text.get(i..).unwrap_or_default();
        let title = TH_TITLES
            .iter()
            .chain(TH_KIN)
            .find(|t| rest.starts_with(**t));
        if let Some(t) = title {
            let kin = TH_KIN.contains(t);
            let after = rest.get(t.len()..).unwrap_or_default();
            let gap = usize::from(after.starts_with(' '));
            let start = i + t.len() + gap;
            let name = text.get(start..).unwrap_or_default();
            if let Some(g) = listed_prefix(name, &names.given) {
                covered = push(out, start, start + g, true);
                continue;
            }
            // "คุณ" also opens everyday words (คุณภาพ "quality", คุณค่า "value", คุณแม่
            // "mother"): only a listed name counts after it.
            if kin || !opens || *t == "คุณ" {
                continue;
            }
            // An unlisted given name: the run of Thai letters that a space or a sign ends.
            let run: usize = name
                .chars()
                .take_while(|&c| is_thai(c))
                .map(char::len_utf8)
                .sum();
            let chars = name.get(..run).map_or(0, |r| r.chars().count());
            let ended = name.get(run..).is_none_or(|r| !r.starts_with(is_thai));
            if (2..=12).contains(&chars) && ended {
                covered = push(out, start, start + run, false);
            }
            continue;
        }
        // A listed given name before a listed family name.
        if !opens {
            continue;
        }
        if let Some(g) = listed_prefix(rest, &names.given)
            && let Some(after) = rest.get(g..).and_then(|r| r.strip_prefix(' '))
            && listed_prefix(after, &names.family).is_some()
            && !rest.get(g..).is_some_and(|r| r.starts_with(is_thai))
        {
            covered = push(out, i, i + g, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&str> {
        find(text)
            .into_iter()
            .map(|n| text.get(n.span).unwrap_or_default())
            .collect()
    }

    #[test]
    fn every_listed_thai_name_fits_the_longest() {
        let l = &*LISTS;
        for n in l.thai.given.iter().chain(&l.thai.family) {
            assert!(n.chars().count() <= TH_LONGEST_NAME, "{n}");
        }
    }

    #[test]
    fn names_in_caseless_scripts() {
        assert_eq!(names("أرسل الملف إلى أخي محمد حسن اليوم"), ["محمد حسن"]);
        assert_eq!(names("موعد مع السيد كريم غدا"), ["كريم"]);
        assert_eq!(names("سلم الطلب إلى تاج الدين عند الباب"), ["تاج الدين"]);
        assert_eq!(names("שלחתי לנועה פרידמן את הקובץ"), ["נועה פרידמן"]);
        // A family name that is a common word too ("כהן" is also "priest") is not listed.
        assert!(names("דני אמר שהוא בא").is_empty());
        assert_eq!(names("कल राहुल कुलकर्णी आएंगे"), ["राहुल कुलकर्णी"]);
        assert_eq!(names("내일 김하늘 씨가 옵니다"), ["김하늘"]);
        assert_eq!(names("박도윤에게 전달해 주세요"), ["박도윤"]);
        assert_eq!(names("用户张伟的订单"), ["张伟"]);
        assert_eq!(names("请转告王芳女士"), ["王芳"]);
        assert_eq!(names("我和妻子 王丽，下周去"), ["王丽"]);
        // Thai: after a title, a listed given name with its family name, or an unlisted one
        // that a space ends; after a kin word, a listed given name only; "ขอบคุณ" (thank you)
        // holds no title.
        assert_eq!(names("ติดต่อคุณกฤตพร กุมารบุญ ได้เลย"), ["กฤตพร กุมารบุญ"]);
        assert_eq!(names("นายสมหมาย ไม่มา"), ["สมหมาย"]);
        assert_eq!(names("พี่กฤตพรครับ"), ["กฤตพร"]);
        assert!(names("พี่ชายของผม").is_empty());
        assert!(names("ขอบคุณครับ").is_empty());
        assert!(names("คุณภาพดีมาก ราคาถูก").is_empty());
        assert_eq!(names("我妈妈李秀英住院了"), ["李秀英"]);
        // Everyday words and lone names are not names.
        for text in [
            "أمل كبير في الغد",
            "이번에 정말로 감사합니다",
            "王府井大街很热闹",
            "आशा है कि आप ठीक हैं",
            "",
        ] {
            assert!(names(text).is_empty(), "{text}: {:?}", names(text));
        }
    }
}
