//! Bounds on the shape of a call's arguments: how deep they nest and how many values they
//! hold. Both are checked by the pipeline on the parsed arguments; [`json_values_at_most`]
//! lets a front end refuse a text holding too many values before parsing it, so that a
//! line of millions of tiny values (`[0,0,0,…]` parses to ≈ 100 bytes a value) never
//! costs the memory its tree would.

/// Deepest JSON nesting the pipeline walks; deeper values are left as they are and reported
/// as an internal failure (blocked under fail-closed).
pub const MAX_DEPTH: usize = 128;

/// Most JSON values (each scalar, array and object counts one; an object's keys are not
/// counted apart from their values) the arguments of one call may hold. A call with more is
/// not minimized: it fails as a call nested too deeply does (blocked under fail-closed).
pub const MAX_VALUES: usize = 2_000_000;

/// Whether the JSON text `json` holds at most `max` values, read without parsing it: one pass
/// over its bytes counting, outside strings, the commas and the openings of arrays and
/// objects, plus one. That count is never less than the values the text parses to (each
/// value after the first is preceded by a comma or an opening bracket), and equal to it for a
/// text without empty containers. A text too short to hold more than `max` values (each value
/// after the first takes two bytes at least) is not read at all.
///
/// Malformed text gets an answer too (the parser that reads it afterwards reports the
/// error).
///
/// ```
/// use toolminimize_core::json_values_at_most;
///
/// assert!(json_values_at_most(br#"{"a": [1, 2, "x,y"]}"#, 5));
/// assert!(!json_values_at_most(br#"{"a": [1, 2, "x,y"]}"#, 4));
/// ```
#[must_use]
pub fn json_values_at_most(json: &[u8], max: usize) -> bool {
    if json.len().div_ceil(2) <= max {
        return true;
    }
    if max == 0 {
        return false;
    }
    let mut count = 1usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in json {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b',' | b'[' | b'{' => {
                count += 1;
                if count > max {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

#[cfg(test)]
pub(crate) mod tests {
    use serde_json::Value;

    use super::json_values_at_most;

    /// The values of a parsed text, counted as [`super::MAX_VALUES`] counts them.
    pub(crate) fn values(v: &Value) -> usize {
        1 + match v {
            Value::Array(a) => a.iter().map(values).sum(),
            Value::Object(o) => o.values().map(values).sum(),
            _ => 0,
        }
    }

    #[test]
    fn the_bound_is_never_below_the_parsed_count() {
        let texts = [
            r#"0"#,
            r#"[]"#,
            r#"{}"#,
            r#"[0,0,0]"#,
            r#"[[],[],{}]"#,
            r#"{"a":1,"b":[1,2,{"c":"d,e"}],"f":"[{,"}"#,
            r#"["\"", "\\", "\\\",[{"]"#,
            r#"{"k": "comma, inside", "l": [true, false, null]}"#,
        ];
        for t in texts {
            let v: Value = serde_json::from_str(t).unwrap();
            let n = values(&v);
            // Read whatever its length: the bound is exact when no container is empty.
            for max in 0..n {
                assert!(
                    !json_values_at_most(t.as_bytes(), max) || t.len().div_ceil(2) <= max,
                    "{t} holds {n} values, not at most {max}"
                );
            }
            assert!(json_values_at_most(t.as_bytes(), n + 3), "{t}");
        }
    }

    #[test]
    fn a_long_array_of_tiny_values_is_refused_without_parsing() {
        let text = format!("[{}0]", "0,".repeat(10_000));
        assert!(json_values_at_most(text.as_bytes(), 10_002));
        assert!(!json_values_at_most(text.as_bytes(), 10_000));
        // Commas inside strings are not values.
        let text = format!("[\"{}\"]", ",".repeat(10_000));
        assert!(json_values_at_most(text.as_bytes(), 2));
    }
}
