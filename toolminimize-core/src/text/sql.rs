//! SQL text: its comments — `-- …` to the end of the line and `/* … */`, outside string
//! literals and quoted identifiers (`SELECT … WHERE note = '--x' -- asked by the night desk`
//! has one comment) — and the conditions of a read's `WHERE` that a key makes redundant
//! (`WHERE account_id = 5521 AND billing_name = '…'`). One pass over the bytes each.

use std::ops::Range;

/// The byte ranges of the comments in `sql`, in order. An unterminated block comment runs to
/// the end of the text.
pub fn comments(sql: &str) -> Vec<Range<usize>> {
    let b = sql.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match (c, b.get(i + 1)) {
            (b'\'' | b'"' | b'`', _) => {
                i = quoted_end(b, i);
                continue;
            }
            (b'-', Some(b'-')) => {
                let end = b
                    .get(i..)
                    .and_then(|rest| rest.iter().position(|&x| x == b'\n'))
                    .map_or(b.len(), |p| i + p);
                out.push(i..end);
                i = end;
                continue;
            }
            (b'/', Some(b'*')) => {
                let end = sql
                    .get(i + 2..)
                    .and_then(|rest| rest.find("*/"))
                    .map_or(b.len(), |p| i + 2 + p + 2);
                out.push(i..end);
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Where the string literal or quoted identifier opening at `open` ends (after its closing
/// quote; the end of the text when it is not closed). A doubled quote or a backslash escapes
/// the next character.
fn quoted_end(b: &[u8], open: usize) -> usize {
    let Some(&q) = b.get(open) else {
        return b.len();
    };
    let mut i = open + 1;
    while let Some(&c) = b.get(i) {
        if c == q {
            if b.get(i + 1) == Some(&q) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += if c == b'\\' { 2 } else { 1 };
    }
    b.len()
}

/// Whether `sql` reads as a statement that only reads (`SELECT …`, `WITH …`).
pub fn is_read(sql: &str) -> bool {
    let head = sql.trim_start().as_bytes();
    ["select", "with"].iter().any(|k| {
        head.get(..k.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(k.as_bytes()))
            && head
                .get(k.len())
                .is_none_or(|c| !c.is_ascii_alphanumeric() && *c != b'_')
    })
}

/// A condition of a `WHERE` made redundant by a key: the value it compares with, and the
/// text to cut with it (the condition and one `AND`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redundant {
    /// The literal the column is compared with.
    pub literal: Range<usize>,
    /// The condition with the `AND` that joins it to the key's side.
    pub cut: Range<usize>,
}

/// One top-level condition of a `WHERE`: `column = literal` when it has that shape.
struct Condition {
    range: Range<usize>,
    /// The column and the literal of an equality.
    equality: Option<(Range<usize>, Range<usize>)>,
}

/// Keywords that end a `WHERE`.
const WHERE_ENDS: &[&str] = &[
    "group",
    "order",
    "limit",
    "having",
    "union",
    "except",
    "intersect",
    "returning",
    "window",
    "offset",
    "fetch",
    "for",
];

/// The conditions of a read statement's top-level `WHERE` that an equality on a key column
/// (`id`, `…_id`, `accountId`, `…_no`, `…_number`, `uuid`) makes redundant: the other
/// equalities, which only narrow to the row the key already names. Nothing when the `WHERE`
/// has an `OR` at its top level (a condition there is no conjunct), no key, or one
/// condition. The cut of a condition before the key takes the `AND` after it, of one after
/// the key the `AND` before it, so any set of them can be cut together.
pub fn redundant_conditions(sql: &str) -> Vec<Redundant> {
    if !is_read(sql) {
        return Vec::new();
    }
    let Some(conditions) = where_conditions(sql) else {
        return Vec::new();
    };
    let Some(key) = conditions.iter().position(|c| {
        c.equality
            .as_ref()
            .is_some_and(|(col, lit)| is_key_column(sql, col) && is_key_literal(sql, lit))
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, c) in conditions.iter().enumerate() {
        let Some((_, lit)) = c.equality.as_ref().filter(|_| i != key) else {
            continue;
        };
        let cut = if i < key {
            conditions
                .get(i + 1)
                .map(|next| c.range.start..next.range.start)
        } else {
            i.checked_sub(1)
                .and_then(|p| conditions.get(p))
                .map(|prev| prev.range.end..c.range.end)
        };
        if let Some(cut) = cut {
            out.push(Redundant {
                literal: lit.clone(),
                cut,
            });
        }
    }
    out
}

/// A column named as a key: `id`, `…_id`, `…Id`, `…_no`, `…_number`, `…uuid`.
fn is_key_column(sql: &str, col: &Range<usize>) -> bool {
    let raw = sql.get(col.clone()).unwrap_or_default();
    let name = raw
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .trim_matches(['"', '`', '[', ']']);
    let lower = name.to_ascii_lowercase();
    lower == "id"
        || lower.ends_with("uuid")
        || ["_id", "_no", "_number", "_nr"]
            .iter()
            .any(|s| lower.len() > s.len() && lower.ends_with(s))
        || name.len() > 2
            && name.ends_with("Id")
            && name
                .as_bytes()
                .get(name.len() - 3)
                .is_some_and(u8::is_ascii_lowercase)
}

/// A key's value: a number, or a quoted token without spaces.
fn is_key_literal(sql: &str, lit: &Range<usize>) -> bool {
    let raw = sql.get(lit.clone()).unwrap_or_default();
    let inner = raw
        .strip_prefix('\'')
        .and_then(|r| r.strip_suffix('\''))
        .unwrap_or(raw);
    !inner.is_empty()
        && inner.len() <= 64
        && inner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_:.".contains(&b))
}

/// Whether the word `w` (ASCII, lower case) starts at `i` of `b`, bounded on both sides.
fn word_at(b: &[u8], i: usize, w: &str) -> bool {
    let n = w.len();
    b.get(i..i + n)
        .is_some_and(|s| s.eq_ignore_ascii_case(w.as_bytes()))
        && i.checked_sub(1)
            .and_then(|p| b.get(p))
            .is_none_or(|c| !c.is_ascii_alphanumeric() && *c != b'_')
        && b.get(i + n)
            .is_none_or(|c| !c.is_ascii_alphanumeric() && *c != b'_')
}

/// Whether `sql` reads as a statement that writes rows: `UPDATE … SET`, `DELETE FROM`,
/// `INSERT INTO`, `REPLACE INTO`, `UPSERT`, `MERGE INTO` (a sentence that opens with
/// "Update" or "Delete" is no statement).
pub fn is_write(sql: &str) -> bool {
    let t = sql.trim_start();
    let b = t.as_bytes();
    let then = |first: &str, next: &[&str]| {
        word_at(b, 0, first)
            && b.get(first.len()..).is_some_and(|rest| {
                let at = first.len() + rest.iter().take_while(|c| c.is_ascii_whitespace()).count();
                at > first.len() && next.iter().any(|w| word_at(b, at, w))
            })
    };
    then("insert", &["into", "ignore", "or"])
        || then("replace", &["into"])
        || then("merge", &["into"])
        || then("delete", &["from"])
        || word_at(b, 0, "upsert")
        || word_at(b, 0, "update") && t.len() < 100_000 && {
            // `UPDATE <table> SET`: the table's name, then `SET`.
            let rest = t.get(6..).unwrap_or_default().trim_start();
            let name = rest
                .bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || b"_.\"`[]".contains(c))
                .count();
            name > 0
                && rest
                    .get(name..)
                    .map(str::trim_start)
                    .is_some_and(|r| word_at(r.as_bytes(), 0, "set"))
        }
}

/// The stretches of a statement that writes rows ([`is_write`]) that pick the rows it writes
/// and name what it writes: everything outside its string literals and comments (tables,
/// columns, bare values such as `customer_id = 4417`) and its top-level `WHERE` whole
/// (`WHERE email = 'ana@example.com'`). The text a literal writes into a row is not among
/// them. Nothing when `sql` is no such statement. By start (the `WHERE` overlaps the
/// stretches around its literals).
pub fn write_operands(sql: &str) -> Vec<Range<usize>> {
    if !is_write(sql) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut start = 0usize;
    for (quoted, _) in quoted_outside_comments(sql) {
        out.push(start..quoted.start);
        start = quoted.end;
    }
    out.push(start..sql.len());
    out.retain(|r| r.start < r.end);
    if let Some(w) = where_span(sql) {
        out.push(w);
        out.sort_by_key(|r| r.start);
    }
    out
}

/// The insides of the string literals of the statement `sql` (quotes excluded), in order;
/// nothing when `sql` is no statement ([`is_read`], [`is_write`]). An edit kept inside them
/// leaves the statement a statement.
pub fn literals(sql: &str) -> Vec<Range<usize>> {
    if !is_read(sql) && !is_write(sql) {
        return Vec::new();
    }
    quoted_outside_comments(sql)
        .into_iter()
        .filter_map(|(_, inside)| inside)
        .collect()
}

/// The string literals and comments of `sql`, in order, each whole, with a literal's inside
/// (quotes excluded; an unclosed literal runs to the end; `None` for a comment): the
/// stretches between them are the statement's code. One pass over the bytes.
fn quoted_outside_comments(sql: &str) -> Vec<(Range<usize>, Option<Range<usize>>)> {
    let b = sql.as_bytes();
    let comments = comments(sql);
    let mut ci = 0usize;
    let mut out = Vec::new();
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        if let Some(cm) = comments.get(ci).filter(|cm| cm.start == i) {
            out.push((cm.clone(), None));
            i = cm.end;
            ci += 1;
            continue;
        }
        if c == b'\'' || c == b'"' {
            let end = quoted_end(b, i);
            let inner_end = if b.get(end.wrapping_sub(1)) == Some(&c) && end > i + 1 {
                end - 1
            } else {
                end
            };
            out.push((i..end, Some(i + 1..inner_end.max(i + 1))));
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// The stretch of the statement's first top-level `WHERE`, from the word `WHERE` to the end
/// of its conditions (an `OR` among them or not).
fn where_span(sql: &str) -> Option<Range<usize>> {
    let (conditions, _) = where_parts(sql)?;
    let first = conditions.first()?;
    let last = conditions.last()?;
    Some(first.start.saturating_sub(5)..last.end)
}

/// The top-level conditions of the statement's first top-level `WHERE`, split at `AND`
/// (the `AND` of a `BETWEEN` excepted); `None` when it has none or an `OR` at its top level.
fn where_conditions(sql: &str) -> Option<Vec<Condition>> {
    let (out, or) = where_parts(sql)?;
    if or {
        return None;
    }
    Some(
        out.into_iter()
            .map(|r| {
                let range = trimmed(sql, r);
                let equality = equality(sql, &range);
                Condition { range, equality }
            })
            .collect(),
    )
}

/// The stretches between the top-level `AND`s of the statement's first top-level `WHERE`, and
/// whether an `OR` stands at its top level; `None` when it has no `WHERE`.
fn where_parts(sql: &str) -> Option<(Vec<Range<usize>>, bool)> {
    let b = sql.as_bytes();
    let comments = comments(sql);
    let mut ci = 0usize;
    let mut i = 0usize;
    let mut depth = 0i32;
    let mut in_where = false;
    let mut cond_start = 0usize;
    let mut between = false;
    let mut or = false;
    let mut out: Vec<Range<usize>> = Vec::new();
    while let Some(&c) = b.get(i) {
        if let Some(cm) = comments.get(ci).filter(|cm| cm.start == i) {
            if in_where {
                break;
            }
            i = cm.end;
            ci += 1;
            continue;
        }
        match c {
            b'\'' | b'"' | b'`' => {
                i = quoted_end(b, i);
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    break;
                }
            }
            b';' if depth == 0 => break,
            _ if depth == 0 && c.is_ascii_alphabetic() => {
                if !in_where {
                    if word_at(b, i, "where") {
                        in_where = true;
                        i += 5;
                        cond_start = i;
                        continue;
                    }
                } else if word_at(b, i, "or") {
                    or = true;
                } else if word_at(b, i, "between") {
                    between = true;
                } else if word_at(b, i, "and") {
                    if between {
                        between = false;
                    } else {
                        out.push(cond_start..i);
                        i += 3;
                        cond_start = i;
                        continue;
                    }
                } else if WHERE_ENDS.iter().any(|w| word_at(b, i, w)) {
                    break;
                }
                // The rest of the word.
                while b
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if !in_where {
        return None;
    }
    out.push(cond_start..i.min(b.len()));
    Some((out, or))
}

/// `r` without the white space at its ends.
fn trimmed(sql: &str, r: Range<usize>) -> Range<usize> {
    let t = sql.get(r.clone()).unwrap_or_default();
    let lead = t.len() - t.trim_start().len();
    let tail = t.len() - t.trim_end().len();
    r.start + lead..(r.end - tail).max(r.start + lead)
}

/// `column = literal` in the condition at `r`: the column's and the literal's ranges.
fn equality(sql: &str, r: &Range<usize>) -> Option<(Range<usize>, Range<usize>)> {
    let t = sql.get(r.clone())?;
    let col_len = t
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || b"_.\"`[]".contains(c))
        .count();
    if col_len == 0 {
        return None;
    }
    let lit_text = t.get(col_len..)?.trim_start().strip_prefix('=')?;
    if lit_text.starts_with('=') {
        return None;
    }
    let lit_rel = t.len() - lit_text.trim_start().len();
    let lit = lit_text.trim();
    // One literal: a quoted string or a bare token.
    let whole = if let Some(body) = lit.strip_prefix('\'') {
        body.find('\'').is_some_and(|e| e + 2 == lit.len())
    } else {
        !lit.is_empty()
            && lit
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"._-+:".contains(&c))
    };
    whole.then(|| {
        (
            r.start..r.start + col_len,
            r.start + lit_rel..r.start + lit_rel + lit.len(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{comments, is_write, literals, redundant_conditions, write_operands};

    fn texts<'a>(q: &'a str, rs: &[std::ops::Range<usize>]) -> Vec<&'a str> {
        rs.iter().map(|r| q.get(r.clone()).unwrap_or("?")).collect()
    }

    #[test]
    fn writes_are_told_from_sentences() {
        assert!(is_write("UPDATE accounts SET tier = 'gold' WHERE id = 7"));
        assert!(is_write("  insert into log (msg) values ('x')"));
        assert!(is_write("DELETE FROM sessions WHERE user_id = 12"));
        assert!(is_write("INSERT OR REPLACE INTO t VALUES (1)"));
        assert!(!is_write("Update the wiki page with the new rota"));
        assert!(!is_write("Delete my old photos from the shared album"));
        assert!(!is_write("SELECT * FROM t"));
    }

    #[test]
    fn literals_are_the_insides_of_quotes_outside_comments() {
        let q = "INSERT INTO notes (id, body) VALUES (12, 'it''s late; call back') -- 'x'";
        assert_eq!(texts(q, &literals(q)), ["it''s late; call back"]);
        assert!(literals("Tell Ana 'hi' from me").is_empty());
    }

    #[test]
    fn a_writes_operands_are_its_code_and_its_where() {
        let q = "UPDATE members SET note = 'moved to Swindon' WHERE email = 'rui@example.net' AND id = 5";
        let ops = write_operands(q);
        let at = |needle: &str| {
            let s = q.find(needle).unwrap_or(0);
            s..s + needle.len()
        };
        let inside =
            |r: std::ops::Range<usize>| ops.iter().any(|o| o.start <= r.start && r.end <= o.end);
        assert!(inside(at("rui@example.net")));
        assert!(inside(at("5")));
        assert!(!inside(at("moved to Swindon")));
        assert!(write_operands("SELECT * FROM t WHERE id = 5").is_empty());
    }

    fn cut_all(q: &str) -> String {
        let mut out = q.to_string();
        let mut r = redundant_conditions(q);
        r.sort_by_key(|x| std::cmp::Reverse(x.cut.start));
        for x in r {
            out.replace_range(x.cut, "");
        }
        out
    }

    #[test]
    fn a_key_makes_the_other_equalities_redundant() {
        let q = "SELECT n FROM invoices WHERE account_id = 7001 AND holder = 'Ada Quill' AND tax_no_hint = 'X9' ORDER BY n";
        assert_eq!(
            cut_all(q),
            "SELECT n FROM invoices WHERE account_id = 7001 ORDER BY n"
        );
        let q = "select * from t where name = 'Ada Quill' and dob = '1970-01-02' and customerId = 42 and created_at >= '2025-01-01'";
        assert_eq!(
            cut_all(q),
            "select * from t where customerId = 42 and created_at >= '2025-01-01'"
        );
        let r = redundant_conditions(q);
        assert_eq!(q.get(r[0].literal.clone()), Some("'Ada Quill'"));
    }

    #[test]
    fn no_key_an_or_or_a_write_leaves_the_conditions() {
        for q in [
            "SELECT * FROM p WHERE last_name = 'Quill' AND dob = '1970-01-02'",
            "SELECT * FROM p WHERE id = 3 OR name = 'Ada Quill'",
            "UPDATE p SET x = 1 WHERE id = 3 AND name = 'Ada Quill'",
            "SELECT * FROM p WHERE id = 3",
            "SELECT * FROM p WHERE id = 'a b' AND name = 'Ada Quill'",
            "SELECT * FROM p",
        ] {
            assert!(redundant_conditions(q).is_empty(), "{q}");
        }
    }

    #[test]
    fn between_subqueries_and_comments_are_read_whole() {
        let q = "SELECT * FROM o WHERE d BETWEEN '2025-01-01' AND '2025-02-01' AND order_no = 'A-7' AND buyer = 'Ada Quill' -- x AND y = 'z'\nLIMIT 5";
        assert_eq!(
            cut_all(q),
            "SELECT * FROM o WHERE d BETWEEN '2025-01-01' AND '2025-02-01' AND order_no = 'A-7' -- x AND y = 'z'\nLIMIT 5"
        );
        let q = "SELECT * FROM o WHERE id IN (SELECT id FROM x WHERE a = 1 AND b = 2) AND name = 'Ada Quill'";
        assert!(redundant_conditions(q).is_empty());
        let q = "SELECT * FROM o WHERE (id = 4) AND name = 'Ada Quill'";
        assert!(redundant_conditions(q).is_empty());
    }

    #[test]
    fn line_and_block_comments() {
        let q = "SELECT * FROM t WHERE note = '--x' -- asked by the night desk\nLIMIT 5 /* ok */";
        let found: Vec<&str> = comments(q).into_iter().filter_map(|r| q.get(r)).collect();
        assert_eq!(found, ["-- asked by the night desk", "/* ok */"]);
    }

    #[test]
    fn literals_and_identifiers_hide_comment_marks() {
        let q = r#"SELECT "a--b", 'it''s -- not' FROM t /* x"#;
        let found: Vec<&str> = comments(q).into_iter().filter_map(|r| q.get(r)).collect();
        assert_eq!(found, ["/* x"]);
        assert!(comments("SELECT 1").is_empty());
        assert!(comments("").is_empty());
    }
}
