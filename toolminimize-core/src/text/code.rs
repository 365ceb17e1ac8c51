//! Where a text holds code: Markdown fenced blocks (```` ``` ````) and inline code spans
//! (`` `…` ``).

/// The code regions of one text, read once: the byte offsets of its fences, of its other
/// backticks and of its line breaks, so that each question after is a few binary searches.
#[derive(Debug, Default)]
pub struct CodeRegions {
    fences: Vec<usize>,
    ticks: Vec<usize>,
    lines: Vec<usize>,
}

impl CodeRegions {
    /// Reads the fences, backticks and line breaks of `text` (one pass).
    pub fn of(text: &str) -> Self {
        let mut r = CodeRegions::default();
        let b = text.as_bytes();
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            match c {
                b'`' if b.get(i..i + 3) == Some(b"```") => {
                    r.fences.push(i);
                    i += 3;
                    continue;
                }
                b'`' => r.ticks.push(i),
                b'\n' => r.lines.push(i),
                _ => {}
            }
            i += 1;
        }
        r
    }

    /// The fenced blocks, each from its opening fence to the end of its closing one (an
    /// unclosed block runs to `len`, the text's length).
    pub fn fenced_blocks(&self, len: usize) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        self.fences.chunks(2).map(move |pair| match pair {
            [open, close] => *open..(close + 3).min(len),
            [open] => *open..len,
            _ => 0..0,
        })
    }

    /// Whether byte `at` lies inside code: after an odd number of fences, or between a
    /// backtick before it and one after it on its line with an odd number of backticks
    /// before it on that line.
    pub fn contains(&self, at: usize) -> bool {
        if self.fences.partition_point(|&f| f < at) % 2 == 1 {
            return true;
        }
        let line = self.lines.partition_point(|&n| n < at);
        let line_start = line
            .checked_sub(1)
            .and_then(|k| self.lines.get(k))
            .map_or(0, |n| n + 1);
        let line_end = self.lines.get(line).copied().unwrap_or(usize::MAX);
        let from = self.ticks.partition_point(|&t| t < line_start);
        let upto = self.ticks.partition_point(|&t| t < at);
        (upto - from) % 2 == 1 && self.ticks.get(upto).is_some_and(|&t| t < line_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenced_blocks_run_fence_to_fence() {
        let t = "a\n```\nx\n```\nb\n```\ny";
        let r = CodeRegions::of(t);
        let blocks: Vec<_> = r.fenced_blocks(t.len()).collect();
        assert_eq!(blocks.len(), 2);
        assert_eq!(&t[blocks[0].clone()], "```\nx\n```");
        assert_eq!(&t[blocks[1].clone()], "```\ny");
    }

    #[test]
    fn fenced_blocks_and_inline_spans() {
        let t = "See `a@b` and\n```py\nx = 1\n```\nafter `c` d";
        let c = CodeRegions::of(t);
        assert!(c.contains(t.find("a@b").unwrap()));
        assert!(c.contains(t.find("x = 1").unwrap()));
        assert!(!c.contains(t.find("after").unwrap()));
        assert!(!c.contains(t.find("See").unwrap()));
        assert!(c.contains(t.find("c`").unwrap()));
        assert!(!c.contains(t.find(" d").unwrap()));
        let t = "one ` tick then text";
        assert!(!CodeRegions::of(t).contains(t.find("text").unwrap()));
    }
}
