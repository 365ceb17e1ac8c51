//! Newline-delimited framing of the MCP stdio transport.
//!
//! Messages are separated by `\n` and carry no embedded newline. A line longer than the
//! configured maximum is skipped up to its newline and reported as [`Frame::TooLong`], so one
//! oversized message cannot exhaust memory or stall the stream; its top-level `id` and
//! `method` are read on the way (see [`super::scan`]), so a request can still be answered.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt};

use super::scan::{Scanned, Scanner};

/// One unit read from a stream.
#[derive(Debug, PartialEq)]
pub(crate) enum Frame {
    /// A line, without its terminating `\n`.
    Line(Vec<u8>),
    /// A line longer than the maximum, skipped: its length in bytes and what could be read of
    /// its `id` and `method`.
    TooLong(usize, Scanned),
}

/// Reads [`Frame`]s from a buffered reader.
#[derive(Debug)]
pub(crate) struct LineReader<R> {
    inner: R,
    max: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// Reads lines of at most `max` bytes (not counting the newline).
    pub(crate) fn new(inner: R, max: usize) -> Self {
        LineReader { inner, max }
    }

    /// The next frame, or `None` at end of stream. A last line without a newline is returned
    /// as a line.
    pub(crate) async fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        let mut line = Vec::new();
        let limit = u64::try_from(self.max)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        let n = (&mut self.inner)
            .take(limit)
            .read_until(b'\n', &mut line)
            .await?;
        if n == 0 {
            return Ok(None);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            return Ok(Some(Frame::Line(line)));
        }
        if line.len() <= self.max {
            return Ok(Some(Frame::Line(line)));
        }
        let mut skipped = line.len();
        let mut scanner = Scanner::default();
        scanner.feed(&line);
        drop(line);
        loop {
            let buf = self.inner.fill_buf().await?;
            if buf.is_empty() {
                break;
            }
            match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    skipped += i;
                    scanner.feed(buf.get(..i).unwrap_or_default());
                    self.inner.consume(i + 1);
                    break;
                }
                None => {
                    let len = buf.len();
                    skipped += len;
                    scanner.feed(buf);
                    self.inner.consume(len);
                }
            }
        }
        Ok(Some(Frame::TooLong(skipped, scanner.finish())))
    }
}

/// Whether a line holds nothing but JSON whitespace.
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// The first byte that is not JSON whitespace.
pub(crate) fn first_significant(line: &[u8]) -> Option<u8> {
    line.iter()
        .copied()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8], max: usize) -> Vec<Frame> {
        let mut r = LineReader::new(input, max);
        let mut out = Vec::new();
        while let Some(f) = r.next_frame().await.unwrap() {
            out.push(f);
        }
        out
    }

    #[tokio::test(flavor = "current_thread")]
    async fn splits_lines_and_keeps_a_final_unterminated_line() {
        let got = frames(b"{\"a\":1}\n\n{\"b\":2}\r\n{\"c\":3}", 100).await;
        assert_eq!(
            got,
            vec![
                Frame::Line(b"{\"a\":1}".to_vec()),
                Frame::Line(Vec::new()),
                Frame::Line(b"{\"b\":2}\r".to_vec()),
                Frame::Line(b"{\"c\":3}".to_vec()),
            ]
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn skips_an_oversized_line_and_resumes_after_it() {
        let mut input = b"ok\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 50));
        input.extend_from_slice(b"\nnext\n");
        let got = frames(&input, 10).await;
        assert_eq!(
            got,
            vec![
                Frame::Line(b"ok".to_vec()),
                Frame::TooLong(50, Scanned::default()),
                Frame::Line(b"next".to_vec())
            ]
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn an_oversized_request_keeps_its_id() {
        let mut input = br#"{"jsonrpc":"2.0","method":"tools/call","params":{"pad":""#.to_vec();
        input.extend(std::iter::repeat_n(b'x', 200_000));
        input.extend_from_slice(b"\"},\"id\":41}\nnext\n");
        let got = frames(&input, 100).await;
        let Some(Frame::TooLong(n, scanned)) = got.first() else {
            panic!("{got:?}")
        };
        assert_eq!(*n, input.len() - "\nnext\n".len());
        assert_eq!(scanned.id, Some(serde_json::json!(41)));
        assert_eq!(scanned.method.as_deref(), Some("tools/call"));
        assert_eq!(got.get(1), Some(&Frame::Line(b"next".to_vec())));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_line_of_exactly_the_maximum_passes() {
        let got = frames(b"0123456789\n", 10).await;
        assert_eq!(got, vec![Frame::Line(b"0123456789".to_vec())]);
    }

    #[test]
    fn blank_and_first_byte() {
        assert!(is_blank(b" \t\r"));
        assert!(!is_blank(b" {}"));
        assert_eq!(first_significant(b"  [1]"), Some(b'['));
        assert_eq!(first_significant(b"  "), None);
    }
}
