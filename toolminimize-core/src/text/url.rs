//! Parts of a URL found by byte offset, without parsing it into owned pieces.

use std::ops::Range;

/// The value of the query parameter that byte `at` lies in: from after its `=` (or its start
/// when it has no `=`) to the next `&`, `;` or `#`. `None` when `at` is not in the query.
///
/// In `https://example.test/find?q=knee&name=Ana%20Ruiz&page=2`, the value around `Ruiz` is
/// `Ana%20Ruiz`; `find` is in the path, not the query.
pub fn param_value(url: &str, at: usize) -> Option<Range<usize>> {
    let query = url.find('?')? + 1;
    let fragment = url.find('#').unwrap_or(url.len());
    if at < query || at >= fragment || at > url.len() {
        return None;
    }
    let head = url.get(query..at)?;
    let start = head.rfind(['&', ';']).map_or(query, |i| query + i + 1);
    let param = url.get(start..fragment)?;
    let end = param.find(['&', ';']).map_or(fragment, |i| start + i);
    let value_start = url
        .get(start..end)?
        .find('=')
        .map_or(start, |i| start + i + 1);
    (value_start <= at).then_some(value_start..end)
}

#[cfg(test)]
mod tests {
    use super::param_value;

    fn around<'a>(u: &'a str, word: &str) -> Option<&'a str> {
        let at = u.find(word)?;
        param_value(u, at).and_then(|r| u.get(r))
    }

    #[test]
    fn values_of_query_parameters() {
        let u = "https://example.test/find?q=knee&name=Ana%20Ruiz&page=2#top";
        assert_eq!(around(u, "Ruiz"), Some("Ana%20Ruiz"));
        assert_eq!(around(u, "knee"), Some("knee"));
        assert_eq!(around(u, "2#"), Some("2"));
        assert_eq!(around(u, "find"), None);
        assert_eq!(around(u, "top"), None);
        // A parameter without `=` is all value; `;` separates as `&` does.
        let v = "https://example.test/a?flag;who=Bo+Lind";
        assert_eq!(around(v, "flag"), Some("flag"));
        assert_eq!(around(v, "Lind"), Some("Bo+Lind"));
        // The name is not the value.
        assert_eq!(around(v, "who"), None);
        assert_eq!(param_value("no query here", 3), None);
    }
}
