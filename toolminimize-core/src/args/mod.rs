//! One read-only view of a call's arguments, whichever way they are held: a
//! `serde_json::Value` (the library's API) or a [`Tape`] over the JSON text (a stream of
//! large calls, where a `Value` would take several times the text). The stages read the
//! arguments only through [`Arg`].

pub(crate) mod tape;

use serde_json::Value;

use self::tape::{NONE, Tag};
pub(crate) use self::tape::{Tape, TapeError};

/// A value of the arguments.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Arg<'a> {
    Value(&'a Value),
    Tape(&'a Tape<'a>, u32),
}

impl<'a> From<&'a Value> for Arg<'a> {
    fn from(v: &'a Value) -> Self {
        Arg::Value(v)
    }
}

impl<'a> From<&'a Tape<'a>> for Arg<'a> {
    fn from(t: &'a Tape<'a>) -> Self {
        Arg::Tape(t, 0)
    }
}

/// What a value is, with its contents.
#[derive(Debug, Clone)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    Number(Num<'a>),
    String(&'a str),
    Array(Elements<'a>),
    Object(Members<'a>),
}

/// A number as it was written (or as a `Value` holds it).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Num<'a> {
    Value(&'a serde_json::Number),
    Text(&'a str),
}

impl Num<'_> {
    pub(crate) fn as_f64(self) -> Option<f64> {
        match self {
            Num::Value(n) => n.as_f64(),
            Num::Text(t) => t.parse::<f64>().ok().filter(|x| x.is_finite()),
        }
    }

    /// Whether it is an integer, as [`crate::schema::is_integer`] reads a `Number`.
    pub(crate) fn is_integer(self) -> bool {
        match self {
            Num::Value(n) => crate::schema::is_integer(n),
            Num::Text(_) => self
                .to_number()
                .is_some_and(|n| crate::schema::is_integer(&n)),
        }
    }

    /// Whether it fits an `i64` or a `u64`, as `Number::is_i64 || is_u64`.
    pub(crate) fn is_64_bit_integer(self) -> bool {
        match self {
            Num::Value(n) => n.is_i64() || n.is_u64(),
            Num::Text(_) => self.to_number().is_some_and(|n| n.is_i64() || n.is_u64()),
        }
    }

    pub(crate) fn to_number(self) -> Option<serde_json::Number> {
        match self {
            Num::Value(n) => Some(n.clone()),
            Num::Text(t) => serde_json::from_str(t).ok(),
        }
    }
}

/// The elements of an array.
#[derive(Debug, Clone)]
pub(crate) enum Elements<'a> {
    Value(std::slice::Iter<'a, Value>),
    /// The tape, the next element and how many are left.
    Tape(&'a Tape<'a>, u32, usize),
}

impl<'a> Iterator for Elements<'a> {
    type Item = Arg<'a>;

    fn next(&mut self) -> Option<Arg<'a>> {
        match self {
            Elements::Value(i) => i.next().map(Arg::Value),
            Elements::Tape(t, at, left) => {
                if *left == 0 {
                    return None;
                }
                let here = *at;
                *left -= 1;
                *at = t.end(here);
                Some(Arg::Tape(t, here))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self {
            Elements::Value(i) => i.len(),
            Elements::Tape(_, _, left) => *left,
        };
        (n, Some(n))
    }
}

impl ExactSizeIterator for Elements<'_> {}

/// The members of an object, in their order.
#[derive(Debug, Clone)]
pub(crate) enum Members<'a> {
    Value(serde_json::map::Iter<'a>),
    /// The tape, the next key and how many are left.
    Tape(&'a Tape<'a>, u32, usize),
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, Arg<'a>);

    fn next(&mut self) -> Option<(&'a str, Arg<'a>)> {
        match self {
            Members::Value(i) => i.next().map(|(k, v)| (k.as_str(), Arg::Value(v))),
            Members::Tape(t, at, left) => {
                if *left == 0 {
                    return None;
                }
                let key = *at;
                *left -= 1;
                *at = t.end(key + 1);
                Some((t.text(key), Arg::Tape(t, key + 1)))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self {
            Members::Value(i) => i.len(),
            Members::Tape(_, _, left) => *left,
        };
        (n, Some(n))
    }
}

impl ExactSizeIterator for Members<'_> {}

impl<'a> Arg<'a> {
    /// What this value is.
    pub(crate) fn node(self) -> Node<'a> {
        match self {
            Arg::Value(v) => match v {
                Value::Null => Node::Null,
                Value::Bool(b) => Node::Bool(*b),
                Value::Number(n) => Node::Number(Num::Value(n)),
                Value::String(s) => Node::String(s),
                Value::Array(a) => Node::Array(Elements::Value(a.iter())),
                Value::Object(o) => Node::Object(Members::Value(o.iter())),
            },
            Arg::Tape(t, i) => {
                let Some(n) = t.nodes.get(i as usize) else {
                    return Node::Null;
                };
                match n.tag {
                    Tag::Null => Node::Null,
                    Tag::False => Node::Bool(false),
                    Tag::True => Node::Bool(true),
                    Tag::Number => Node::Number(Num::Text(
                        t.src
                            .get(n.a as usize..n.a as usize + n.b as usize)
                            .unwrap_or("0"),
                    )),
                    Tag::Str | Tag::StrEscaped => Node::String(t.text(i)),
                    Tag::Array => {
                        let len = match t.list(i) {
                            Some(l) => l.len(),
                            None => n.a.saturating_sub(i + 1) as usize,
                        };
                        Node::Array(Elements::Tape(t, i + 1, len))
                    }
                    Tag::Object => {
                        let len = t.list(i).map_or(0, <[u32]>::len);
                        Node::Object(Members::Tape(t, i + 1, len))
                    }
                }
            }
        }
    }

    pub(crate) fn as_str(self) -> Option<&'a str> {
        match self.node() {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_number(self) -> Option<Num<'a>> {
        match self.node() {
            Node::Number(n) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn members(self) -> Option<Members<'a>> {
        match self.node() {
            Node::Object(m) => Some(m),
            _ => None,
        }
    }

    pub(crate) fn elements(self) -> Option<Elements<'a>> {
        match self.node() {
            Node::Array(e) => Some(e),
            _ => None,
        }
    }

    pub(crate) fn is_string(self) -> bool {
        self.as_str().is_some()
    }

    pub(crate) fn is_array(self) -> bool {
        matches!(self.node(), Node::Array(_))
    }

    pub(crate) fn is_object(self) -> bool {
        matches!(self.node(), Node::Object(_))
    }

    /// An object or an array.
    pub(crate) fn is_container(self) -> bool {
        matches!(self.node(), Node::Array(_) | Node::Object(_))
    }

    /// The number of elements or members (0 for a scalar).
    pub(crate) fn len(self) -> usize {
        match self.node() {
            Node::Array(e) => e.len(),
            Node::Object(m) => m.len(),
            _ => 0,
        }
    }

    /// The member `key` of an object.
    pub(crate) fn get(self, key: &str) -> Option<Arg<'a>> {
        match self {
            Arg::Value(v) => crate::pointer::field(v, key).map(Arg::Value),
            Arg::Tape(t, i) => match t.nodes.get(i as usize)?.tag {
                Tag::Object => t.member(i, key).map(|v| Arg::Tape(t, v)),
                _ => None,
            },
        }
    }

    /// Element `n` of an array.
    pub(crate) fn index(self, n: usize) -> Option<Arg<'a>> {
        match self {
            Arg::Value(v) => v.as_array()?.get(n).map(Arg::Value),
            Arg::Tape(t, i) => {
                let node = t.nodes.get(i as usize)?;
                if node.tag != Tag::Array {
                    return None;
                }
                match t.list(i) {
                    Some(l) => l.get(n).map(|&e| Arg::Tape(t, e)),
                    None if node.b == NONE => {
                        let e = u32::try_from(n).ok()?.checked_add(i + 1)?;
                        (e < node.a).then_some(Arg::Tape(t, e))
                    }
                    None => None,
                }
            }
        }
    }

    /// The value `pointer` (RFC 6901) points to, as [`Value::pointer`] answers.
    pub(crate) fn pointer(self, pointer: &str) -> Option<Arg<'a>> {
        if let Arg::Value(v) = self {
            return crate::pointer::get(v, pointer).map(Arg::Value);
        }
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        rest.split('/')
            .try_fold(self, |target, token| match target.node() {
                Node::Object(_) => target.get(&crate::pointer::unescape(token)),
                Node::Array(_) => crate::pointer::index(token).and_then(|n| target.index(n)),
                _ => None,
            })
    }

    /// The text at `pointer`, if a string is there.
    pub(crate) fn str_at(self, pointer: &str) -> Option<&'a str> {
        self.pointer(pointer).and_then(Arg::as_str)
    }

    /// This value as a `serde_json::Value` (a copy).
    pub(crate) fn to_value(self) -> Value {
        match self {
            Arg::Value(v) => v.clone(),
            Arg::Tape(..) => match self.node() {
                Node::Null => Value::Null,
                Node::Bool(b) => Value::Bool(b),
                Node::Number(n) => n.to_number().map_or(Value::Null, Value::Number),
                Node::String(s) => Value::String(s.to_owned()),
                Node::Array(e) => Value::Array(e.map(Arg::to_value).collect()),
                Node::Object(m) => {
                    Value::Object(m.map(|(k, v)| (k.to_owned(), v.to_value())).collect())
                }
            },
        }
    }

    /// This value as compact JSON text.
    pub(crate) fn to_json(self) -> String {
        match self {
            Arg::Value(v) => v.to_string(),
            Arg::Tape(..) => self.to_value().to_string(),
        }
    }

    /// Whether this value equals `v` (as `Value`'s equality reads it).
    pub(crate) fn equals(self, v: &Value) -> bool {
        match (self, self.node(), v) {
            (Arg::Value(a), _, _) => a == v,
            (_, Node::Null, Value::Null) => true,
            (_, Node::Bool(a), Value::Bool(b)) => a == *b,
            (_, Node::Number(a), Value::Number(b)) => a.to_number().is_some_and(|a| a == *b),
            (_, Node::String(a), Value::String(b)) => a == b,
            (_, Node::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.zip(b).all(|(x, y)| x.equals(y))
            }
            (_, Node::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.clone()
                        .all(|(k, x)| b.get(k).is_some_and(|y| x.equals(y)))
            }
            _ => false,
        }
    }
}
