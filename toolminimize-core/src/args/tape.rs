//! A parsed JSON text held as a flat list of small nodes over the text itself: strings and
//! numbers are spans of the text (a string written with escapes is unescaped once into a side
//! buffer), containers know where their subtree ends. A node is 12 bytes, so arguments made
//! of many short values take about as much memory again as their text, where a
//! `serde_json::Value` takes 80 bytes a value plus a heap block a string.

use std::borrow::Cow;

use serde::Deserialize as _;

/// A node's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tag {
    Null,
    False,
    True,
    /// `a..a+b` of the text.
    Number,
    /// `a..a+b` of the text (between the quotes).
    Str,
    /// `a..a+b` of the unescaped buffer.
    StrEscaped,
    /// `a`: the index past the subtree; `b`: where its element list starts in the side
    /// table, or [`NONE`] when every element is a scalar (element `i` is node `index + 1 + i`).
    Array,
    /// `a`: the index past the subtree; `b`: where its key list starts in the side table
    /// (always there; sorted by key when the object has more than [`SCAN_MAX`] members).
    Object,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub(crate) tag: Tag,
    pub(crate) a: u32,
    pub(crate) b: u32,
}

/// No side table.
pub(crate) const NONE: u32 = u32::MAX;

/// Objects with at most this many members keep their keys in order and are searched in turn;
/// larger ones keep them sorted and are searched by halves.
pub(crate) const SCAN_MAX: usize = 8;

/// Arguments parsed into a [`Tape`]: the text, and the buffers made from it (its own, or
/// borrowed from a [`Body`] kept from an earlier parse of the same text).
#[derive(Debug)]
pub(crate) struct Tape<'s> {
    pub(crate) src: &'s str,
    pub(crate) unescaped: Cow<'s, str>,
    pub(crate) nodes: Cow<'s, [Node]>,
    /// Per container with a list: its length, then its element (or key) node indices.
    pub(crate) table: Cow<'s, [u32]>,
}

/// The buffers of a [`Tape`] without the text they index: kept to read the same text again
/// ([`Body::over`]) without parsing it a second time.
#[derive(Debug, Clone)]
pub(crate) struct Body {
    src_len: usize,
    unescaped: String,
    nodes: Vec<Node>,
    table: Vec<u32>,
}

impl Body {
    /// The tape of `src`, the text this body was parsed from (`None` for a text of another
    /// length, which cannot be it).
    pub(crate) fn over<'s>(&'s self, src: &'s str) -> Option<Tape<'s>> {
        (src.len() == self.src_len).then(|| Tape {
            src,
            unescaped: Cow::Borrowed(&self.unescaped),
            nodes: Cow::Borrowed(&self.nodes),
            table: Cow::Borrowed(&self.table),
        })
    }
}

/// A tape being parsed.
struct Builder<'s> {
    src: &'s str,
    unescaped: String,
    nodes: Vec<Node>,
    table: Vec<u32>,
}

/// Why a text was not made into a tape (the caller then parses it as a `Value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TapeError {
    /// Not JSON, or nested deeper than the parser's limit.
    Invalid,
    /// Over 4 GiB, or more nodes than a `u32` counts.
    TooLarge,
    /// An object names one key twice (a `Value` would keep one of them).
    DuplicateKey,
}

struct Open {
    node: u32,
    object: bool,
    /// Where its children start in the scratch list.
    kids: usize,
    /// Whether a child is a container. An array's children are listed in the scratch only
    /// from its first container child on: those before it are the nodes right after it.
    nested: bool,
    /// How many children an array has.
    len: usize,
}

impl<'s> Tape<'s> {
    /// Parses `src`, which must be one JSON value. Linear in its length (a large object's keys
    /// are sorted: n log n in their number).
    pub(crate) fn parse(src: &'s str) -> Result<Tape<'s>, TapeError> {
        let b = Builder::parse(src)?;
        Ok(Tape {
            src,
            unescaped: Cow::Owned(b.unescaped),
            nodes: Cow::Owned(b.nodes),
            table: Cow::Owned(b.table),
        })
    }

    /// Its buffers, to read its text again later ([`Body::over`]).
    pub(crate) fn into_body(self) -> Body {
        Body {
            src_len: self.src.len(),
            unescaped: self.unescaped.into_owned(),
            nodes: self.nodes.into_owned(),
            table: self.table.into_owned(),
        }
    }

    /// The text of string node `i` (empty for any other node).
    pub(crate) fn text(&self, i: u32) -> &str {
        key_text(&self.nodes, self.src, &self.unescaped, i)
    }
}

impl<'s> Builder<'s> {
    fn parse(src: &'s str) -> Result<Builder<'s>, TapeError> {
        if u32::try_from(src.len()).is_err() {
            return Err(TapeError::TooLarge);
        }
        // Checked by serde_json first, so the scan below meets only valid JSON; it still
        // answers anything else with an error, never a panic. Neither recurses.
        let mut de = serde_json::Deserializer::from_str(src);
        serde::de::IgnoredAny::deserialize(&mut de).map_err(|_| TapeError::Invalid)?;
        de.end().map_err(|_| TapeError::Invalid)?;
        let mut t = Builder {
            src,
            unescaped: String::new(),
            nodes: Vec::with_capacity(nodes_at_most(src.as_bytes())),
            table: Vec::new(),
        };
        t.scan()?;
        t.nodes.shrink_to_fit();
        t.table.shrink_to_fit();
        Ok(t)
    }

    fn push(&mut self, tag: Tag, a: usize, b: usize) -> Result<u32, TapeError> {
        let i = u32::try_from(self.nodes.len()).map_err(|_| TapeError::TooLarge)?;
        let a = u32::try_from(a).map_err(|_| TapeError::TooLarge)?;
        let b = u32::try_from(b).map_err(|_| TapeError::TooLarge)?;
        self.nodes.push(Node { tag, a, b });
        Ok(i)
    }

    fn scan(&mut self) -> Result<(), TapeError> {
        let bytes = self.src.as_bytes();
        let mut stack: Vec<Open> = Vec::new();
        let mut scratch: Vec<u32> = Vec::new();
        let mut pos = 0usize;
        // Whether the next string is an object's key.
        let mut expect_key = false;
        while let Some(&c) = bytes.get(pos) {
            let here = self.nodes.len();
            let index = u32::try_from(here).map_err(|_| TapeError::TooLarge)?;
            match c {
                b' ' | b'\t' | b'\n' | b'\r' | b':' => {
                    pos += 1;
                    continue;
                }
                b',' => {
                    pos += 1;
                    expect_key = stack.last().is_some_and(|o| o.object);
                    continue;
                }
                b'{' | b'[' => {
                    let object = c == b'{';
                    self.push(if object { Tag::Object } else { Tag::Array }, 0, 0)?;
                    if let Some(parent) = stack.last_mut()
                        && !parent.object
                    {
                        if !parent.nested {
                            // The scalars before it are the nodes right after the array.
                            let first = parent.node + 1;
                            let before =
                                u32::try_from(parent.len).map_err(|_| TapeError::TooLarge)?;
                            scratch.extend(first..first + before);
                        }
                        parent.nested = true;
                        parent.len += 1;
                        scratch.push(index);
                    }
                    stack.push(Open {
                        node: index,
                        object,
                        kids: scratch.len(),
                        nested: false,
                        len: 0,
                    });
                    expect_key = object;
                    pos += 1;
                    continue;
                }
                b'}' | b']' => {
                    let open = stack.pop().ok_or(TapeError::Invalid)?;
                    self.close(&open, &mut scratch)?;
                    expect_key = false;
                    pos += 1;
                    continue;
                }
                b'"' => {
                    let end = string_end(bytes, pos + 1).ok_or(TapeError::Invalid)?;
                    let body = self.src.get(pos + 1..end).ok_or(TapeError::Invalid)?;
                    if body.contains('\\') {
                        let start = self.unescaped.len();
                        unescape_into(body, &mut self.unescaped).ok_or(TapeError::Invalid)?;
                        let len = self.unescaped.len() - start;
                        self.push(Tag::StrEscaped, start, len)?;
                    } else {
                        self.push(Tag::Str, pos + 1, body.len())?;
                    }
                    pos = end + 1;
                    if expect_key {
                        // A key: listed by its object; its value follows.
                        scratch.push(index);
                        expect_key = false;
                        continue;
                    }
                }
                b't' => {
                    self.push(Tag::True, 0, 0)?;
                    pos += 4;
                }
                b'f' => {
                    self.push(Tag::False, 0, 0)?;
                    pos += 5;
                }
                b'n' => {
                    self.push(Tag::Null, 0, 0)?;
                    pos += 4;
                }
                b'-' | b'0'..=b'9' => {
                    let len = bytes
                        .get(pos..)
                        .unwrap_or_default()
                        .iter()
                        .take_while(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                        .count();
                    self.push(Tag::Number, pos, len)?;
                    pos += len;
                }
                _ => return Err(TapeError::Invalid),
            }
            // A scalar element of an array is listed by it (once it has a container child).
            if let Some(parent) = stack.last_mut()
                && !parent.object
            {
                parent.len += 1;
                if parent.nested {
                    scratch.push(index);
                }
            }
        }
        if !stack.is_empty() || self.nodes.is_empty() {
            return Err(TapeError::Invalid);
        }
        Ok(())
    }

    /// Closes the container `open`: its end, and its list from the scratch.
    fn close(&mut self, open: &Open, scratch: &mut Vec<u32>) -> Result<(), TapeError> {
        let end = u32::try_from(self.nodes.len()).map_err(|_| TapeError::TooLarge)?;
        let kids = scratch.get(open.kids..).unwrap_or_default();
        let b = if open.object || open.nested {
            let at = u32::try_from(self.table.len()).map_err(|_| TapeError::TooLarge)?;
            self.table
                .push(u32::try_from(kids.len()).map_err(|_| TapeError::TooLarge)?);
            let first = self.table.len();
            self.table.extend_from_slice(kids);
            if open.object {
                let keys = self.table.get_mut(first..).unwrap_or_default();
                let (nodes, src, unescaped) = (&self.nodes, self.src, &self.unescaped);
                let text = |k: u32| key_text(nodes, src, unescaped, k);
                if keys.len() > SCAN_MAX {
                    keys.sort_by(|&x, &y| text(x).cmp(text(y)));
                    if keys.windows(2).any(|w| match w {
                        [x, y] => text(*x) == text(*y),
                        _ => false,
                    }) {
                        return Err(TapeError::DuplicateKey);
                    }
                } else {
                    for (n, &x) in keys.iter().enumerate() {
                        if keys.iter().skip(n + 1).any(|&y| text(x) == text(y)) {
                            return Err(TapeError::DuplicateKey);
                        }
                    }
                }
            }
            at
        } else {
            NONE
        };
        scratch.truncate(open.kids);
        let node = self
            .nodes
            .get_mut(open.node as usize)
            .ok_or(TapeError::Invalid)?;
        node.a = end;
        node.b = b;
        Ok(())
    }
}

impl Tape<'_> {
    /// The index past node `i`'s subtree.
    pub(crate) fn end(&self, i: u32) -> u32 {
        match self.nodes.get(i as usize) {
            Some(n) if matches!(n.tag, Tag::Array | Tag::Object) => n.a,
            _ => i + 1,
        }
    }

    /// The list of container `i` in the side table, if it has one.
    pub(crate) fn list(&self, i: u32) -> Option<&[u32]> {
        let n = self.nodes.get(i as usize)?;
        if n.b == NONE || !matches!(n.tag, Tag::Array | Tag::Object) {
            return None;
        }
        let len = *self.table.get(n.b as usize)? as usize;
        let first = n.b as usize + 1;
        self.table.get(first..first + len)
    }

    /// The member `key` of object node `i`: the index of its value.
    pub(crate) fn member(&self, i: u32, key: &str) -> Option<u32> {
        let keys = self.list(i)?;
        if keys.len() <= SCAN_MAX {
            return keys.iter().find(|&&k| self.text(k) == key).map(|k| k + 1);
        }
        keys.binary_search_by(|&k| self.text(k).cmp(key))
            .ok()
            .and_then(|at| keys.get(at))
            .map(|k| k + 1)
    }
}

fn key_text<'t>(nodes: &[Node], src: &'t str, unescaped: &'t str, i: u32) -> &'t str {
    match nodes.get(i as usize) {
        Some(n) if n.tag == Tag::Str => src.get(n.a as usize..(n.a + n.b) as usize),
        Some(n) if n.tag == Tag::StrEscaped => {
            unescaped.get(n.a as usize..(n.a as usize + n.b as usize))
        }
        _ => None,
    }
    .unwrap_or_default()
}

/// How many nodes a tape of the JSON text `json` can have, at most: one for the first value,
/// one more for each comma, colon and opening bracket outside strings.
fn nodes_at_most(json: &[u8]) -> usize {
    let mut n = 1usize;
    let mut at = 0usize;
    while let Some(rest) = json.get(at..) {
        let Some(i) = memchr::memchr3(b'"', b',', b':', rest) else {
            n += rest.iter().filter(|&&b| b == b'[' || b == b'{').count();
            break;
        };
        let (before, _) = rest.split_at(i);
        n += before.iter().filter(|&&b| b == b'[' || b == b'{').count();
        match rest.get(i) {
            Some(b'"') => match string_end(json, at + i + 1) {
                Some(end) => at = end + 1,
                None => break,
            },
            _ => {
                n += 1;
                at += i + 1;
            }
        }
    }
    n
}

/// Where the string whose text starts at `from` ends (the index of its closing quote).
fn string_end(bytes: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let rest = bytes.get(from..)?;
        let at = memchr::memchr2(b'"', b'\\', rest)?;
        match rest.get(at)? {
            b'"' => return Some(from + at),
            _ => from += at + 2,
        }
    }
}

/// Appends the text of a JSON string body written with escapes to `out`.
fn unescape_into(body: &str, out: &mut String) -> Option<()> {
    let mut rest = body;
    while let Some(at) = rest.find('\\') {
        out.push_str(rest.get(..at)?);
        let esc = rest.get(at + 1..)?;
        let mut chars = esc.chars();
        let c = chars.next()?;
        let mut used = 1;
        match c {
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            '/' => out.push('/'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'u' => {
                let hi = u32::from_str_radix(esc.get(1..5)?, 16).ok()?;
                used = 5;
                let code = if (0xD800..0xDC00).contains(&hi) {
                    let lo = esc
                        .get(5..7)
                        .filter(|p| *p == "\\u")
                        .and_then(|_| esc.get(7..11))
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .filter(|lo| (0xDC00..0xE000).contains(lo))?;
                    used = 11;
                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                } else {
                    hi
                };
                out.push(char::from_u32(code)?);
            }
            _ => return None,
        }
        rest = esc.get(used..)?;
    }
    out.push_str(rest);
    Some(())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::args::Arg;

    /// Every pointer of `v`, with the value there.
    fn pointers(v: &Value, path: &mut String, out: &mut Vec<String>) {
        out.push(path.clone());
        match v {
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("/{i}"));
                    pointers(x, path, out);
                    path.truncate(len);
                }
            }
            Value::Object(o) => {
                for (k, x) in o {
                    let len = path.len();
                    crate::schema::push_token(path, k);
                    pointers(x, path, out);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }

    /// The tape of `text` reads as serde_json's `Value` of it: every pointer, every value,
    /// in order.
    fn reads_as_value(text: &str) {
        let v: Value = serde_json::from_str(text).unwrap();
        let t = Tape::parse(text).unwrap();
        let root = Arg::from(&t);
        assert_eq!(root.to_value(), v, "{text}");
        assert!(root.equals(&v));
        let mut all = Vec::new();
        pointers(&v, &mut String::new(), &mut all);
        for p in all
            .iter()
            .map(String::as_str)
            .chain(["/nowhere", "/0/9", "x", "/-"])
        {
            let want = v.pointer(p);
            let got = root.pointer(p).map(Arg::to_value);
            assert_eq!(got.as_ref(), want, "{p} in {text}");
        }
    }

    #[test]
    fn reads_every_kind_of_value() {
        reads_as_value(r#"{"a": 1, "b": [true, false, null], "c": {"d": "e"}, "f": []}"#);
        reads_as_value(r#"[1, -2.5e3, 0, {"x": [[], {}]}, "s"]"#);
        reads_as_value(r#"  "just a string"  "#);
        reads_as_value("17");
        reads_as_value(r#"{"": {"": [""]}, "a/b": {"m~n": 1}}"#);
    }

    #[test]
    fn unescapes_strings_and_keys() {
        reads_as_value(r#"{"q\"uote": "line\nbreak \t tab \\ back \/ slash \u00e9 \ud83d\ude00"}"#);
        reads_as_value(r#"["\u0000\u001f", "a\"b", "\\", "plain é 😀"]"#);
        let t = Tape::parse(r#"{"k": "a\u0041b"}"#).unwrap();
        assert_eq!(Arg::from(&t).str_at("/k"), Some("aAb"));
    }

    #[test]
    fn a_large_object_is_searched_by_key() {
        let mut m = serde_json::Map::new();
        for i in (0..300).rev() {
            m.insert(format!("key_{i}"), json!(i));
        }
        let text = Value::Object(m).to_string();
        reads_as_value(&text);
        let t = Tape::parse(&text).unwrap();
        let keys: Vec<&str> = Arg::from(&t).members().unwrap().map(|(k, _)| k).collect();
        assert_eq!(
            keys.first(),
            Some(&"key_299"),
            "members stay in their order"
        );
        assert_eq!(
            Arg::from(&t).get("key_7").map(Arg::to_value),
            Some(json!(7))
        );
        assert!(Arg::from(&t).get("key_300").is_none());
    }

    #[test]
    fn arrays_of_containers_are_indexed() {
        let text = json!([{"a": 1}, [2], 3, {"b": [4, {"c": 5}]}]).to_string();
        reads_as_value(&text);
        let t = Tape::parse(&text).unwrap();
        assert_eq!(
            Arg::from(&t).pointer("/3/b/1/c").map(Arg::to_value),
            Some(json!(5))
        );
        assert_eq!(Arg::from(&t).len(), 4);
    }

    #[test]
    fn what_a_value_would_hold_otherwise_is_refused() {
        assert_eq!(
            Tape::parse(r#"{"a": 1, "a": 2}"#).unwrap_err(),
            TapeError::DuplicateKey
        );
        let many: String = (0..20).map(|i| format!(r#""k{i}": 0, "#)).collect();
        assert_eq!(
            Tape::parse(&format!("{{{many}\"k3\": 1}}")).unwrap_err(),
            TapeError::DuplicateKey
        );
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "tru",
            "1 2",
            "\"\\x\"",
            "[\"\\ud800\"]",
        ] {
            assert_eq!(Tape::parse(bad).unwrap_err(), TapeError::Invalid, "{bad}");
        }
        // Nesting is read without recursion, however deep: the stages' own limit applies.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(Tape::parse(&deep).map(|t| t.nodes.len()), Ok(100_000));
    }

    #[test]
    fn a_kept_body_reads_its_text_again() {
        let keys: Vec<String> = (0..20).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!(
            r#"{{"s": "a\u0041b", "n": [1, {{"x": null}}, "z"], "big": {{{}}}}}"#,
            keys.join(", ")
        );
        let t = Tape::parse(&text).unwrap();
        let before = Arg::from(&t).to_value();
        let body = t.into_body();
        let again = body.over(&text).unwrap();
        assert_eq!(Arg::from(&again).to_value(), before);
        assert_eq!(
            Arg::from(&again).pointer("/big/k13").map(Arg::to_value),
            Some(json!(13))
        );
        assert!(body.over(&format!("{text} ")).is_none(), "another text");
    }

    #[test]
    fn a_node_is_twelve_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 12);
    }
}
