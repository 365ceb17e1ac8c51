//! The output of a rewrite of arguments held as a [`Tape`]: the edits (values replaced,
//! members and elements removed), written out with the rest of the tape as the JSON text
//! `serde_json` would write for the rewritten `Value`.

use std::collections::HashSet;
use std::io::{self, Write};
use std::sync::LazyLock;

use rustc_hash::FxHashMap;
use serde_json::Value;

use super::{Patch, Target, array_index};
use crate::args::tape::Tag;
use crate::args::{Arg, Node, Num, Tape};

/// The edits of one tape.
pub(super) struct Edits<'t> {
    tape: &'t Tape<'t>,
    root: Patch,
}

impl<'t> Edits<'t> {
    pub(super) fn new(tape: &'t Tape<'t>) -> Self {
        Edits {
            tape,
            root: Patch::default(),
        }
    }

    /// Replaces the value at `path` (as setting it through `Value::pointer_mut` would).
    pub(super) fn set(&mut self, path: &str, v: Value) {
        if Arg::from(self.tape).pointer(path).is_some() {
            self.root.insert(path, v);
        }
    }

    /// Removes the member or element at `path`.
    pub(super) fn drop_at(&mut self, path: &str) {
        if let Some(node) = self.root.node_at(path) {
            node.dropped = true;
        }
    }

    /// The tape with the edits, as compact JSON text.
    pub(super) fn write(self) -> String {
        render(self.tape, &self.root)
    }

    /// The edits, to be written out later over the same text.
    pub(super) fn into_patch(self) -> Patch {
        self.root
    }
}

/// `tape` with the edits of `patch`, as compact JSON text.
pub(super) fn render(tape: &Tape<'_>, patch: &Patch) -> String {
    let mut out = Vec::with_capacity(tape.src.len());
    // Writing to a `Vec` does not fail.
    let _ = write_patched(Arg::from(tape), Some(patch), &mut out);
    String::from_utf8(out).unwrap_or_default()
}

impl Target for Edits<'_> {
    fn view(&self) -> Arg<'_> {
        Arg::from(self.tape)
    }

    fn set(&mut self, path: &str, _now: &str, v: Value) {
        Edits::set(self, path, v);
    }

    fn drop_elements(&mut self, parent: &str, indices: &[usize]) {
        for i in indices {
            self.drop_at(&format!("{parent}/{i}"));
        }
    }

    fn drop_members(&mut self, parent: &str, keys: &HashSet<&str>) {
        for k in keys {
            let mut path = parent.to_owned();
            crate::schema::push_token(&mut path, k);
            self.drop_at(&path);
        }
    }
}

/// Whether `serde_json` writes numbers as they were read (its `arbitrary_precision`
/// feature): then a number's text is copied, otherwise it is parsed and written again.
static NUMBERS_AS_READ: LazyLock<bool> = LazyLock::new(|| {
    serde_json::from_str::<serde_json::Number>("1.50e2").is_ok_and(|n| n.to_string() == "1.50e2")
});

/// Writes `v` with the edits of `patch` under it.
pub(super) fn write_patched<W: Write>(
    v: Arg<'_>,
    patch: Option<&Patch>,
    out: &mut W,
) -> io::Result<()> {
    let patch = patch.filter(|p| p.value.is_some() || !p.children.is_empty());
    if let Some(new) = patch.and_then(|p| p.value.as_ref()) {
        return serde_json::to_writer(&mut *out, new).map_err(io::Error::from);
    }
    let children = patch.map(|p| &p.children);
    match (v, v.node()) {
        (Arg::Value(x), _) if children.is_none() => {
            serde_json::to_writer(&mut *out, x).map_err(io::Error::from)?;
        }
        (_, Node::Object(members)) => {
            out.write_all(b"{")?;
            let mut first = true;
            for (k, child) in members {
                let p = children.and_then(|c| c.get(k));
                if p.is_some_and(|p| p.dropped) {
                    continue;
                }
                if !first {
                    out.write_all(b",")?;
                }
                first = false;
                write_string(k, out)?;
                out.write_all(b":")?;
                write_patched(child, p, out)?;
            }
            out.write_all(b"}")?;
        }
        (_, Node::Array(elements)) => {
            let by_index: FxHashMap<usize, &Patch> = children
                .into_iter()
                .flatten()
                .filter_map(|(k, p)| array_index(k).map(|i| (i, p)))
                .collect();
            out.write_all(b"[")?;
            let mut first = true;
            for (i, child) in elements.enumerate() {
                let p = by_index.get(&i).copied();
                if p.is_some_and(|p| p.dropped) {
                    continue;
                }
                if !first {
                    out.write_all(b",")?;
                }
                first = false;
                write_patched(child, p, out)?;
            }
            out.write_all(b"]")?;
        }
        (_, Node::String(s)) => match v {
            // A string written without escapes is written again as it was: `serde_json`
            // escapes only quotes, backslashes and control characters, none of which it holds.
            Arg::Tape(t, i) if t.nodes.get(i as usize).is_some_and(|n| n.tag == Tag::Str) => {
                out.write_all(b"\"")?;
                out.write_all(s.as_bytes())?;
                out.write_all(b"\"")?;
            }
            _ => write_string(s, out)?,
        },
        (_, Node::Number(Num::Text(t))) if *NUMBERS_AS_READ => out.write_all(t.as_bytes())?,
        (_, Node::Number(n)) => match n.to_number() {
            Some(n) => serde_json::to_writer(&mut *out, &n).map_err(io::Error::from)?,
            None => out.write_all(b"null")?,
        },
        (_, Node::Bool(true)) => out.write_all(b"true")?,
        (_, Node::Bool(false)) => out.write_all(b"false")?,
        (_, Node::Null) => out.write_all(b"null")?,
    }
    Ok(())
}

fn write_string<W: Write>(s: &str, out: &mut W) -> io::Result<()> {
    serde_json::to_writer(&mut *out, s).map_err(io::Error::from)
}
