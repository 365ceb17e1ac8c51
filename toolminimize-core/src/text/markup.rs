//! HTML in a message's text: the tags that end a paragraph or a line (`</p>`, `<br/>`,
//! `<li>`), which part sentences as a line break does.
//!
//! Mail, chat and ticket APIs take bodies written in HTML; a full stop right before `</p>`
//! ends its sentence, and the next paragraph starts a new one.

/// Longest tag read (bytes): attributes past it are not a block tag's.
const MAX_TAG: usize = 256;

/// Elements that stand on lines of their own: a tag of one, opening or closing, breaks the
/// text as a line break does.
const BLOCK: &[&str] = &[
    "address",
    "article",
    "blockquote",
    "br",
    "dd",
    "div",
    "dl",
    "dt",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];

/// The length in bytes of the block tag that starts at byte `at` of `text`
/// (`<p>`, `</p>`, `<br/>`, `<div class="x">`), if one does: not an inline tag (`<b>`), nor
/// a `<` that compares (`x < 3 and y > 2`).
pub fn block_tag_len(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?.strip_prefix('<')?;
    let name_from = usize::from(rest.starts_with('/'));
    let after = rest.get(name_from..)?;
    let name_len = after.bytes().take_while(u8::is_ascii_alphanumeric).count();
    let name = after.get(..name_len)?;
    if !BLOCK.iter().any(|b| b.eq_ignore_ascii_case(name)) {
        return None;
    }
    // The name ends the tag, or attributes follow it after a space or a slash.
    let tail = after.get(name_len..)?;
    if !tail.starts_with(['>', ' ', '/', '\t', '\n']) {
        return None;
    }
    let close = tail
        .bytes()
        .take(MAX_TAG)
        .take_while(|&b| b != b'<')
        .position(|b| b == b'>')?;
    Some(1 + name_from + name_len + close + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_tags_are_read_where_they_start() {
        assert_eq!(block_tag_len("a.</p><p>b", 2), Some(4));
        assert_eq!(block_tag_len("<br />x", 0), Some(6));
        assert_eq!(block_tag_len("<b>bold</b>", 0), None);
        assert_eq!(block_tag_len("x < 3 and y > 2", 2), None);
    }

    #[test]
    fn block_tags_are_read_with_their_attributes_and_in_any_case() {
        assert_eq!(block_tag_len("<P>", 0), Some(3));
        assert_eq!(block_tag_len("<div class=\"note\">", 0), Some(18));
        assert_eq!(block_tag_len("</LI>", 0), Some(5));
        assert_eq!(block_tag_len("<br>", 0), Some(4));
        assert_eq!(block_tag_len("<h2 id=x>", 0), Some(9));
    }

    #[test]
    fn inline_tags_comparisons_and_unclosed_tags_are_not_block_tags() {
        for t in [
            "<span>",
            "<a href=x>",
            "<pre",
            "<p",
            "< p>",
            "<paragraph>",
            "<p <b>",
        ] {
            assert_eq!(block_tag_len(t, 0), None, "{t}");
        }
        assert_eq!(block_tag_len("", 0), None);
        assert_eq!(block_tag_len("é<p>", 1), None);
    }
}
