//! JSON Pointer look-ups (RFC 6901) answering exactly as [`Value::pointer`] and
//! [`Value::pointer_mut`], without a copy of each reference token (only a token holding `~`
//! is unescaped into a new string) and with a small object's keys compared in turn rather
//! than hashed.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// Objects with at most this many members are searched key by key.
const SCAN_MAX: usize = 8;

/// The value `pointer` points to in `root`, as [`Value::pointer`].
pub(crate) fn get<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    let rest = tokens_of(pointer)?;
    let Some(rest) = rest else {
        return Some(root);
    };
    rest.split('/')
        .try_fold(root, |target, token| match target {
            Value::Object(map) => member(map, &unescape(token)),
            Value::Array(list) => index(token).and_then(|i| list.get(i)),
            _ => None,
        })
}

/// The value `pointer` points to in `root`, mutably, as [`Value::pointer_mut`].
pub(crate) fn get_mut<'v>(root: &'v mut Value, pointer: &str) -> Option<&'v mut Value> {
    let rest = tokens_of(pointer)?;
    let Some(rest) = rest else {
        return Some(root);
    };
    rest.split('/')
        .try_fold(root, |target, token| match target {
            Value::Object(map) => member_mut(map, &unescape(token)),
            Value::Array(list) => index(token).and_then(move |i| list.get_mut(i)),
            _ => None,
        })
}

/// The reference tokens of `pointer` joined by `/`: `Some(None)` for the empty pointer (the
/// whole document), `None` for one not starting with `/` (pointing nowhere).
fn tokens_of(pointer: &str) -> Option<Option<&str>> {
    if pointer.is_empty() {
        return Some(None);
    }
    pointer.strip_prefix('/').map(Some)
}

/// A reference token unescaped: `~1` is `/`, then `~0` is `~`.
pub(crate) fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// An array index token: decimal digits, without a sign or a leading zero.
pub(crate) fn index(token: &str) -> Option<usize> {
    let t = unescape(token);
    if t.starts_with('+') || (t.starts_with('0') && t.len() != 1) {
        return None;
    }
    t.parse().ok()
}

/// The member `key` of `v` when it is an object, as [`Value::get`] with a string key (a small
/// object's keys compared in turn rather than hashed).
pub(crate) fn field<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    match v {
        Value::Object(map) => member(map, key),
        _ => None,
    }
}

/// The member of `map` named `key`.
pub(crate) fn member<'v>(map: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
    if map.len() <= SCAN_MAX {
        map.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    } else {
        map.get(key)
    }
}

/// The member of `map` named `key`, mutably.
fn member_mut<'v>(map: &'v mut Map<String, Value>, key: &str) -> Option<&'v mut Value> {
    if map.len() <= SCAN_MAX {
        map.iter_mut().find(|(k, _)| *k == key).map(|(_, v)| v)
    } else {
        map.get_mut(key)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn answers_as_serde_json() {
        let mut many = serde_json::Map::new();
        for i in 0..20 {
            many.insert(format!("k{i}"), json!(i));
        }
        let mut doc = json!({
            "a": {"b/c": [1, {"~d": "x"}], "": "empty"},
            "e": [0, 1, 2],
            "many": many,
        });
        let pointers = [
            "",
            "/",
            "a",
            "/a",
            "/a/b~1c",
            "/a/b~1c/1/~0d",
            "/a/",
            "/e/0",
            "/e/2",
            "/e/3",
            "/e/01",
            "/e/+1",
            "/e/-1",
            "/e/x",
            "/many/k7",
            "/many/k19",
            "/many/k20",
            "/x/y",
            "/a/b~1c/0/z",
            "/e/~01",
        ];
        for p in pointers {
            assert_eq!(get(&doc, p), doc.pointer(p), "{p}");
            let expected = doc.clone().pointer_mut(p).map(|v| v.clone());
            assert_eq!(get_mut(&mut doc, p).map(|v| v.clone()), expected, "{p}");
        }
    }
}
