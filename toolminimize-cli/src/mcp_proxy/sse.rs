//! Server-Sent Events, as Streamable HTTP uses them: an incremental reader of an event stream
//! (the `data`, `id` and `retry` fields; comments and other fields are skipped) with a size
//! limit per event, and the writer of one event.
//!
//! Format: <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>.

use super::framing::Frame;
use super::scan::Scanner;

/// One dispatched event.
#[derive(Debug, PartialEq)]
pub(crate) struct Event {
    /// The data: a JSON-RPC message, or [`Frame::TooLong`] when it was over the limit.
    pub(crate) data: Frame,
}

/// Reads events from the bytes of a stream, fed in pieces.
#[derive(Debug)]
pub(crate) struct SseReader {
    max: usize,
    /// The current line (bounded: a data line longer than `max` is only counted and scanned).
    line: Vec<u8>,
    line_len: usize,
    /// The line is over the limit: counted (and scanned, for a data line), not kept.
    line_over: bool,
    line_is_data: bool,
    data: Vec<u8>,
    data_len: usize,
    has_data: bool,
    over: Option<Scanner>,
    /// The last `\r` ended a line; a `\n` right after it belongs to it.
    after_cr: bool,
    /// The last event id seen (`id:`), for resuming the stream.
    pub(crate) last_event_id: Option<String>,
    /// The reconnection time the server asked for (`retry:`), in milliseconds.
    pub(crate) retry_ms: Option<u64>,
    /// The event type of the current event (`event:`).
    event_type: Vec<u8>,
}

impl SseReader {
    /// A reader for events of at most `max` bytes of data.
    pub(crate) fn new(max: usize) -> Self {
        SseReader {
            max,
            line: Vec::new(),
            line_len: 0,
            line_over: false,
            line_is_data: false,
            data: Vec::new(),
            data_len: 0,
            has_data: false,
            over: None,
            after_cr: false,
            last_event_id: None,
            retry_ms: None,
            event_type: Vec::new(),
        }
    }

    /// Feeds bytes; returns the events they completed.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        for &b in bytes {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\n' => self.end_line(&mut events),
                b'\r' => {
                    self.after_cr = true;
                    self.end_line(&mut events);
                }
                _ => self.push(b),
            }
        }
        events
    }

    fn push(&mut self, b: u8) {
        self.line_len += 1;
        // Lines are kept whole up to the limit (plus room for the field name); a data line
        // beyond it goes on in the scanner only, any other line is skipped.
        if self.line_over {
            if self.line_is_data
                && let Some(s) = self.over.as_mut()
            {
                s.feed(&[b]);
            }
            return;
        }
        self.line.push(b);
        if self.line.len() > self.max.saturating_add(16) {
            self.line_over = true;
            self.line_is_data = self.line.starts_with(b"data:");
            if self.line_is_data {
                let mut scanner = match self.over.take() {
                    Some(s) => s,
                    None => {
                        let mut s = Scanner::default();
                        s.feed(&self.data);
                        s
                    }
                };
                if self.has_data {
                    scanner.feed(b"\n");
                }
                scanner.feed(data_value(&self.line));
                self.over = Some(scanner);
                self.data.clear();
            }
            self.line.clear();
        }
    }

    fn end_line(&mut self, events: &mut Vec<Event>) {
        let line = std::mem::take(&mut self.line);
        let len = std::mem::take(&mut self.line_len);
        if std::mem::take(&mut self.line_over) {
            if std::mem::take(&mut self.line_is_data) {
                // A data line over the limit: its bytes went to the scanner.
                self.data_len += len.saturating_sub(5) + usize::from(self.has_data);
                self.has_data = true;
            }
            return;
        }
        if len == 0 {
            self.dispatch(events);
            return;
        }
        if line.first() == Some(&b':') {
            return;
        }
        let (field, value) = match line.iter().position(|&c| c == b':') {
            Some(i) => {
                let (f, v) = line.split_at(i);
                let v = v.get(1..).unwrap_or_default();
                (f, v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line.as_slice(), &b""[..]),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.data_len += 1;
                    match self.over.as_mut() {
                        Some(s) => s.feed(b"\n"),
                        None => self.data.push(b'\n'),
                    }
                }
                self.has_data = true;
                self.data_len += value.len();
                match self.over.as_mut() {
                    Some(s) => s.feed(value),
                    None if self.data_len > self.max => {
                        let mut s = Scanner::default();
                        s.feed(&self.data);
                        s.feed(value);
                        self.data.clear();
                        self.over = Some(s);
                    }
                    None => self.data.extend_from_slice(value),
                }
            }
            b"id" if !value.contains(&0) => {
                self.last_event_id = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"retry" => {
                if let Ok(ms) = std::str::from_utf8(value).unwrap_or("").parse::<u64>() {
                    self.retry_ms = Some(ms);
                }
            }
            b"event" => self.event_type = value.to_vec(),
            _ => {}
        }
    }

    fn dispatch(&mut self, events: &mut Vec<Event>) {
        let event_type = std::mem::take(&mut self.event_type);
        let has_data = std::mem::take(&mut self.has_data);
        let data = std::mem::take(&mut self.data);
        let len = std::mem::take(&mut self.data_len);
        let over = self.over.take();
        if !has_data || !(event_type.is_empty() || event_type == b"message") {
            return;
        }
        let frame = match over {
            Some(scanner) => Frame::TooLong(len, scanner.finish()),
            None if data.iter().all(u8::is_ascii_whitespace) => return,
            None => Frame::Line(data),
        };
        events.push(Event { data: frame });
    }
}

/// The value of a `data:` line.
fn data_value(line: &[u8]) -> &[u8] {
    let v = line.get(5..).unwrap_or_default();
    v.strip_prefix(b" ").unwrap_or(v)
}

/// One event carrying a JSON-RPC message (which holds no newline).
pub(crate) fn event(message: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(message.len() + 24);
    out.extend_from_slice(b"event: message\ndata: ");
    out.extend(
        message
            .iter()
            .copied()
            .filter(|b| *b != b'\n' && *b != b'\r'),
    );
    out.extend_from_slice(b"\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(events: Vec<Event>) -> Vec<Frame> {
        events.into_iter().map(|e| e.data).collect()
    }

    #[test]
    fn reads_events_split_anywhere() {
        let text = b": keep-alive\r\nid: 7\r\nretry: 1500\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata:{\"b\":2}\n\nevent: other\ndata: x\n\n";
        for cut in 0..text.len() {
            let mut r = SseReader::new(1000);
            let (a, b) = text.split_at(cut);
            let mut got = lines(r.feed(a));
            got.extend(lines(r.feed(b)));
            assert_eq!(
                got,
                vec![
                    Frame::Line(b"{\"a\":\n1}".to_vec()),
                    Frame::Line(b"{\"b\":2}".to_vec())
                ],
                "cut at {cut}"
            );
            assert_eq!(r.last_event_id.as_deref(), Some("7"));
            assert_eq!(r.retry_ms, Some(1500));
        }
    }

    #[test]
    fn an_event_over_the_limit_keeps_its_id() {
        let mut text = b"data: {\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"pad\":\"".to_vec();
        text.extend(std::iter::repeat_n(b'x', 5000));
        text.extend_from_slice(b"\"}}\n\ndata: {\"id\":10}\n\n");
        let mut r = SseReader::new(100);
        let got = lines(r.feed(&text));
        let Some(Frame::TooLong(n, scanned)) = got.first() else {
            panic!("{got:?}")
        };
        assert!(*n > 5000);
        assert_eq!(scanned.id, Some(serde_json::json!(9)));
        assert_eq!(got.get(1), Some(&Frame::Line(b"{\"id\":10}".to_vec())));
        // Several data lines that together pass the limit.
        let mut r = SseReader::new(20);
        let got = lines(r.feed(b"data: {\"id\":3,\ndata: \"p\":\"0123456789012345\"}\n\n"));
        assert!(
            matches!(got.first(), Some(Frame::TooLong(_, s)) if s.id == Some(serde_json::json!(3)))
        );
    }

    #[test]
    fn writes_one_event_per_message() {
        assert_eq!(event(b"{\"a\":1}"), b"event: message\ndata: {\"a\":1}\n\n");
    }
}
