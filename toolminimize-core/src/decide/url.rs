//! URLs keep what they are for — the host, the path (the resource), the search term, the
//! route's origin and destination, a results token, an unsubscribe address — and lose the
//! personal parameters they do not need.

use super::location::{Precision, precision};
use super::{CallView, Decision, FieldCtx, Op, Rule};
use crate::item::{PsdItem, PsdKind};
use crate::text::words::identifier_words;

/// Parameter names whose value is what the URL is for.
const PURPOSE_PARAMS: &[&str] = &[
    "q",
    "query",
    "search",
    "s",
    "term",
    "terms",
    "keyword",
    "keywords",
    "k",
    "text",
    "origin",
    "destination",
    "daddr",
    "saddr",
    "from",
    "to",
    "address",
    "location",
    "loc",
    "near",
    "city",
    "place",
    "ll",
    "center",
    "page",
    "token",
    "cursor",
    "id",
    "code",
    "dir",
    "api",
    "waypoints",
    "travelmode",
    "mode",
    "hl",
    "lang",
    "category",
    "specialty",
    "speciality",
    "type",
];

/// Parameter names whose value is a postcode.
const POSTCODE_PARAMS: &[&str] = &[
    "zip",
    "zipcode",
    "postcode",
    "postal",
    "postalcode",
    "plz",
    "cp",
    "pincode",
];

/// Where in the URL byte `at` lies, and the name of the query parameter if any.
enum Part<'a> {
    Host,
    Path,
    Param(&'a str),
    Fragment,
}

fn part_of(url: &str, at: usize) -> Part<'_> {
    let scheme_end = url.find("://").map_or(0, |i| i + 3);
    let path_start = url
        .get(scheme_end..)
        .and_then(|t| t.find(['/', '?', '#']))
        .map_or(url.len(), |i| scheme_end + i);
    if at < path_start {
        return Part::Host;
    }
    let query_start = url.find('?');
    let frag_start = url.find('#');
    if frag_start.is_some_and(|f| at >= f) {
        return Part::Fragment;
    }
    match query_start {
        Some(q) if at > q => {
            let head = url.get(q + 1..at).unwrap_or_default();
            let param_start = head.rfind('&').map_or(q + 1, |i| q + 1 + i + 1);
            let seg = url.get(param_start..).unwrap_or_default();
            let name = seg.split(['=', '&']).next().unwrap_or_default();
            Part::Param(name)
        }
        _ => Part::Path,
    }
}

pub(super) fn decide(cv: &CallView<'_>, f: &FieldCtx<'_>, item: &PsdItem) -> Decision {
    let Some(span) = item.span.as_ref() else {
        return Decision::keep(Rule::RequiredField);
    };
    let url = f.text.unwrap_or_default();
    match part_of(url, span.start) {
        Part::Host | Part::Path | Part::Fragment => Decision::keep(Rule::UrlPurpose),
        Part::Param(name) => {
            let words = identifier_words(name);
            let purpose = words.iter().any(|w| PURPOSE_PARAMS.contains(&w.as_str()));
            if item.kind == PsdKind::Coordinates {
                let exact = precision(cv.kind) == Precision::Exact
                    || url.contains("/dir/")
                    || url.contains("direction");
                return if exact {
                    Decision::keep(Rule::UrlPurpose)
                } else {
                    Decision::drop(Op::Generalize, Rule::CityLevelForPurpose)
                };
            }
            // A postcode in a parameter named for one is the coarse place a page prices,
            // ships or searches for: the precision the location rules keep anyway.
            if item.kind == PsdKind::Postcode
                && words.iter().any(|w| POSTCODE_PARAMS.contains(&w.as_str()))
            {
                return Decision::keep(Rule::CityLevelForPurpose);
            }
            let unsubscribe = url.to_lowercase().contains("unsubscribe")
                && matches!(item.kind, PsdKind::Email | PsdKind::AccountId);
            if purpose || unsubscribe {
                Decision::keep(Rule::UrlPurpose)
            } else {
                Decision::drop(Op::RemoveSpan, Rule::UrlPersonalParameter)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_of_a_url() {
        let u = "https://example.test/find/doctor?q=knee&name=Ana#top";
        assert!(matches!(part_of(u, u.find("example").unwrap()), Part::Host));
        assert!(matches!(part_of(u, u.find("doctor").unwrap()), Part::Path));
        assert!(matches!(
            part_of(u, u.find("knee").unwrap()),
            Part::Param("q")
        ));
        assert!(matches!(
            part_of(u, u.find("Ana").unwrap()),
            Part::Param("name")
        ));
        assert!(matches!(part_of(u, u.find("top").unwrap()), Part::Fragment));
    }
}
