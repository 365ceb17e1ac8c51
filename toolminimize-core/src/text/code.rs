//! Where a text holds code: Markdown fenced blocks (```` ``` ````) and inline code spans
//! (`` `…` ``).

/// The code regions of one text, read once: the byte offsets of its fences, so that each
/// question after is a binary search.
#[derive(Debug, Default)]
pub struct CodeRegions {
    fences: Vec<usize>,
}

impl CodeRegions {
    /// Reads the fences of `text` (one pass).
    pub fn of(text: &str) -> Self {
        CodeRegions {
            fences: text.match_indices("```").map(|(i, _)| i).collect(),
        }
    }

    /// Whether byte `at` of `text` lies inside code: after an odd number of fences, or inside
    /// a pair of backticks on its own line.
    pub fn contains(&self, text: &str, at: usize) -> bool {
        if self.fences.partition_point(|&f| f < at) % 2 == 1 {
            return true;
        }
        let line_start = text
            .get(..at)
            .and_then(|t| t.rfind('\n'))
            .map_or(0, |i| i + 1);
        let line_end = text
            .get(at..)
            .and_then(|t| t.find('\n'))
            .map_or(text.len(), |i| at + i);
        let (Some(before), Some(after)) = (text.get(line_start..at), text.get(at..line_end)) else {
            return false;
        };
        before.matches('`').count() % 2 == 1 && after.contains('`')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenced_blocks_and_inline_spans() {
        let t = "See `a@b` and\n```py\nx = 1\n```\nafter";
        let c = CodeRegions::of(t);
        assert!(c.contains(t, t.find("a@b").unwrap()));
        assert!(c.contains(t, t.find("x = 1").unwrap()));
        assert!(!c.contains(t, t.find("after").unwrap()));
        assert!(!c.contains(t, t.find("See").unwrap()));
        let t = "one ` tick then text";
        assert!(!CodeRegions::of(t).contains(t, t.find("text").unwrap()));
    }
}
