//! Reading the `id` and `method` of a message the proxy cannot parse whole: a line over
//! `--max-message-bytes` (seen only in pieces, while it is skipped) or a line that is not valid
//! JSON. A streaming scanner follows the top level of a JSON object byte by byte, in one pass
//! and constant memory, and keeps the values of its `"id"` and `"method"` keys when they are
//! short and complete. With the id, the proxy can answer the request instead of leaving its
//! sender waiting.

use serde_json::Value;

/// Longest `id` or `method` value kept, in bytes (JSON text).
const MAX_KEPT: usize = 512;
/// Longest key read at the top level; longer keys are neither `id` nor `method`.
const MAX_KEY: usize = 8;

/// What the scanner learnt of a message.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Scanned {
    /// The top-level `id`, when complete, short and a string or a number.
    pub(crate) id: Option<Value>,
    /// The top-level `method`, when complete and a short string.
    pub(crate) method: Option<String>,
    /// The text starts with `{` (a single message, not a batch or garbage).
    pub(crate) object: bool,
}

impl Scanned {
    /// Scans a whole buffer.
    pub(crate) fn of(bytes: &[u8]) -> Self {
        let mut s = Scanner::default();
        s.feed(bytes);
        s.finish()
    }

    /// Whether the scan found a request: an object with an id and a method.
    pub(crate) fn is_request(&self) -> bool {
        self.object && self.id.is_some() && self.method.is_some()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Id,
    Method,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the first significant byte.
    Start,
    /// At depth 1, expecting a key (or `}`).
    Key,
    /// Inside a top-level key string.
    InKey,
    /// After a top-level key, expecting `:`.
    Colon,
    /// After `:`, expecting the value.
    Value,
    /// Inside a top-level value.
    InValue,
    /// After a top-level value, expecting `,` or `}`.
    Comma,
    /// The top-level object ended, or the text is not an object, or it broke the grammar.
    Done,
}

/// A streaming scanner over the top level of one JSON object.
#[derive(Debug)]
pub(crate) struct Scanner {
    state: State,
    /// Nesting depth inside the current top-level value.
    depth: usize,
    in_string: bool,
    escaped: bool,
    key: Vec<u8>,
    key_too_long: bool,
    field: Field,
    value: Vec<u8>,
    value_too_long: bool,
    out: Scanned,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner {
            state: State::Start,
            depth: 0,
            in_string: false,
            escaped: false,
            key: Vec::new(),
            key_too_long: false,
            field: Field::Other,
            value: Vec::new(),
            value_too_long: false,
            out: Scanned::default(),
        }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

impl Scanner {
    /// Feeds the next piece of the text.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.state == State::Done {
                return;
            }
            self.step(b);
        }
    }

    /// What was found.
    pub(crate) fn finish(mut self) -> Scanned {
        // A scalar value (a number) may end at the end of the text only in a broken message;
        // it is not complete, so it is not kept.
        if self.state == State::InValue {
            self.value.clear();
        }
        self.out
    }

    fn step(&mut self, b: u8) {
        match self.state {
            State::Start => {
                if b == b'{' {
                    self.out.object = true;
                    self.state = State::Key;
                } else if !is_ws(b) && b != 0xEF && b != 0xBB && b != 0xBF {
                    // Anything but an object (a UTF-8 byte order mark is skipped).
                    self.state = State::Done;
                }
            }
            State::Key => {
                if b == b'"' {
                    self.key.clear();
                    self.key_too_long = false;
                    self.escaped = false;
                    self.state = State::InKey;
                } else if b == b'}' || !is_ws(b) {
                    self.state = State::Done;
                }
            }
            State::InKey => {
                if self.escaped {
                    self.escaped = false;
                    self.push_key(b);
                } else if b == b'\\' {
                    self.escaped = true;
                    self.push_key(b);
                } else if b == b'"' {
                    self.field = match (self.key_too_long, self.key.as_slice()) {
                        (false, b"id") => Field::Id,
                        (false, b"method") => Field::Method,
                        _ => Field::Other,
                    };
                    self.state = State::Colon;
                } else {
                    self.push_key(b);
                }
            }
            State::Colon => {
                if b == b':' {
                    self.state = State::Value;
                } else if !is_ws(b) {
                    self.state = State::Done;
                }
            }
            State::Value => {
                if is_ws(b) {
                    return;
                }
                self.value.clear();
                self.value_too_long = false;
                self.depth = 0;
                self.in_string = false;
                self.escaped = false;
                self.state = State::InValue;
                self.value_byte(b);
            }
            State::InValue => self.value_byte(b),
            State::Comma => {
                if b == b',' {
                    self.state = State::Key;
                } else if !is_ws(b) {
                    // `}` ends the object; anything else breaks it.
                    self.state = State::Done;
                }
            }
            State::Done => {}
        }
    }

    fn push_key(&mut self, b: u8) {
        if self.key.len() < MAX_KEY {
            self.key.push(b);
        } else {
            self.key_too_long = true;
        }
    }

    fn keep(&mut self, b: u8) {
        if self.field == Field::Other {
            return;
        }
        if self.value.len() < MAX_KEPT {
            self.value.push(b);
        } else {
            self.value_too_long = true;
        }
    }

    /// One byte of a top-level value.
    fn value_byte(&mut self, b: u8) {
        if self.in_string {
            self.keep(b);
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.depth == 0 {
                    self.end_value();
                }
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                self.keep(b);
            }
            b'{' | b'[' => {
                self.depth += 1;
                self.keep(b);
            }
            b'}' | b']' if self.depth > 0 => {
                self.depth -= 1;
                self.keep(b);
                if self.depth == 0 {
                    self.end_value();
                }
            }
            // The end of a scalar at the top level: `,` or `}` (or space) after it.
            b',' | b'}' if self.depth == 0 => {
                self.end_value();
                self.step(b);
            }
            _ if self.depth == 0 && is_ws(b) => self.end_value(),
            _ => self.keep(b),
        }
    }

    fn end_value(&mut self) {
        self.state = State::Comma;
        if self.field == Field::Other || self.value_too_long {
            return;
        }
        let Ok(v) = serde_json::from_slice::<Value>(&self.value) else {
            return;
        };
        match (self.field, v) {
            (Field::Id, v @ (Value::String(_) | Value::Number(_))) => self.out.id = Some(v),
            (Field::Method, Value::String(m)) => self.out.method = Some(m),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_id_and_method_wherever_they_are() {
        let s = Scanned::of(
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":[1,{"id":2}]}}"#,
        );
        assert_eq!(s.id, Some(json!(7)));
        assert_eq!(s.method.as_deref(), Some("tools/call"));
        assert!(s.is_request());
        let s =
            Scanned::of(br#"{"params":{"id":"inner","x":"}"},"method":"tools/call","id":"outer"}"#);
        assert_eq!(s.id, Some(json!("outer")));
        let s = Scanned::of(br#" { "id" : -1.5e3 , "result" : {} }"#);
        // Numbers are kept as written (`arbitrary_precision`): compare the value.
        assert_eq!(
            s.id.as_ref().and_then(serde_json::Value::as_f64),
            Some(-1.5e3)
        );
        assert!(!s.is_request());
    }

    #[test]
    fn reads_the_id_of_a_broken_line_before_the_break() {
        let s = Scanned::of(br#"{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"#);
        assert_eq!(s.id, Some(json!("a\"b")));
        assert_eq!(s.method.as_deref(), Some("tools/call"));
        // A number cut at the end of the text is not complete.
        assert_eq!(Scanned::of(br#"{"id":12"#).id, None);
        // Garbage after the id does not take it back.
        assert_eq!(Scanned::of(br#"{"id":3, oops"#).id, Some(json!(3)));
    }

    #[test]
    fn feeds_in_pieces_give_the_same_answer() {
        let text = br#"{"params":{"arguments":{"k":"v\\\""}},"method":"tools/call","id":99}"#;
        for cut in 0..text.len() {
            let mut s = Scanner::default();
            let (a, b) = text.split_at(cut);
            s.feed(a);
            s.feed(b);
            let out = s.finish();
            assert_eq!(out.id, Some(json!(99)), "cut at {cut}");
            assert_eq!(out.method.as_deref(), Some("tools/call"));
        }
    }

    #[test]
    fn ignores_what_is_not_an_id() {
        assert_eq!(Scanned::of(b"[1,2]").id, None);
        assert!(!Scanned::of(b"[1,2]").object);
        assert_eq!(Scanned::of(br#"{"id":null,"method":"x"}"#).id, None);
        assert_eq!(Scanned::of(br#"{"id":{"a":1}}"#).id, None);
        assert_eq!(Scanned::of(br#"{"identifier":1}"#).id, None);
        let long = format!(r#"{{"id":"{}"}}"#, "x".repeat(MAX_KEPT + 10));
        assert_eq!(Scanned::of(long.as_bytes()).id, None);
        assert_eq!(Scanned::of(b"not json").id, None);
        assert_eq!(
            Scanned::of("\u{feff}{\"id\":1}".as_bytes()).id,
            Some(json!(1))
        );
    }
}
