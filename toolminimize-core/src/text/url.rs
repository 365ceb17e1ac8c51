//! Parts of a URL found by byte offset, without parsing it into owned pieces.

use std::ops::Range;

/// The value of the query parameter that byte `at` lies in: from after its `=` (or its start
/// when it has no `=`) to the next `&`, `;` or `#`. `None` when `at` is not in the query.
///
/// In `https://example.test/find?q=knee&name=Ana%20Ruiz&page=2`, the value around `Ruiz` is
/// `Ana%20Ruiz`; `find` is in the path, not the query.
pub fn param_value(url: &str, at: usize) -> Option<Range<usize>> {
    let (param, _) = param_around(url, at)?;
    let value_start = url
        .get(param.clone())?
        .find('=')
        .map_or(param.start, |i| param.start + i + 1);
    (value_start <= at).then_some(value_start..param.end)
}

/// The query parameter that byte `at` lies in (from after the `&` or `;` before it to the next
/// one or the `#`), and the query's own stretch (after its `?`, up to the `#`). `None` when `at`
/// is not in the query.
fn param_around(url: &str, at: usize) -> Option<(Range<usize>, Range<usize>)> {
    let query = url.find('?')? + 1;
    let fragment = url.find('#').unwrap_or(url.len());
    if at < query || at >= fragment || at > url.len() {
        return None;
    }
    let head = url.get(query..at)?;
    let start = head.rfind(['&', ';']).map_or(query, |i| query + i + 1);
    let param = url.get(start..fragment)?;
    let end = param.find(['&', ';']).map_or(fragment, |i| start + i);
    Some((start..end, query..fragment))
}

/// The whole query parameter (`name=value`) whose name byte `at` lies in, with the `&` or `;`
/// that joins it to the parameter before it (or, when it comes first, to the one after), so
/// that cutting it leaves the query well formed. `None` when `at` is not in a parameter's name.
///
/// In `https://example.test/find?q=knee&allergies=nuts&page=2`, the parameter around
/// `allergies` is `&allergies=nuts`.
pub fn param_named_at(url: &str, at: usize) -> Option<Range<usize>> {
    let (param, query) = param_around(url, at)?;
    let eq = url.get(param.clone())?.find('=').map(|i| param.start + i)?;
    if at >= eq {
        return None;
    }
    if param.start > query.start {
        Some(param.start - 1..param.end)
    } else if param.end < query.end {
        Some(param.start..param.end + 1)
    } else {
        Some(param)
    }
}

#[cfg(test)]
mod tests {
    use super::{param_named_at, param_value};

    #[test]
    fn a_parameter_by_its_name_goes_with_its_joint() {
        let u = "https://example.test/find?q=knee&allergies=nuts&page=2";
        let cut = |word: &str| {
            let r = param_named_at(u, u.find(word).unwrap_or(0)).unwrap_or(0..0);
            format!("{}{}", &u[..r.start], &u[r.end..])
        };
        assert_eq!(cut("allergies"), "https://example.test/find?q=knee&page=2");
        assert_eq!(cut("q="), "https://example.test/find?allergies=nuts&page=2");
        assert_eq!(
            cut("page"),
            "https://example.test/find?q=knee&allergies=nuts"
        );
        assert_eq!(param_named_at(u, u.find("nuts").unwrap_or(0)), None);
        assert_eq!(param_named_at(u, u.find("find").unwrap_or(0)), None);
    }

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
