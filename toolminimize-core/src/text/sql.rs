//! Comments in SQL text: `-- …` to the end of the line and `/* … */`, outside string literals
//! and quoted identifiers (`SELECT … WHERE note = '--x' -- asked by the night desk` has one
//! comment). One pass over the bytes.

use std::ops::Range;

/// The byte ranges of the comments in `sql`, in order. An unterminated block comment runs to
/// the end of the text.
pub fn comments(sql: &str) -> Vec<Range<usize>> {
    let b = sql.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while let Some(&c) = b.get(i) {
        if let Some(q) = quote {
            if c == q {
                // A doubled quote is an escaped one inside the literal.
                if b.get(i + 1) == Some(&q) {
                    i += 2;
                    continue;
                }
                quote = None;
            } else if c == b'\\' {
                i += 1;
            }
            i += 1;
            continue;
        }
        match (c, b.get(i + 1)) {
            (b'\'' | b'"' | b'`', _) => quote = Some(c),
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

#[cfg(test)]
mod tests {
    use super::comments;

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
