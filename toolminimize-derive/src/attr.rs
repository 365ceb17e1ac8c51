//! Parsing of `#[minimize(...)]` on the container and on fields. Every mistake is recorded in the
//! [`Ctxt`] with the span of the offending token and parsing goes on, so one build reports all
//! of them.

use proc_macro2::{Span, TokenTree};
use serde_derive_internals::Ctxt;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Lit, LitStr, Token};

/// The attribute namespace.
pub(crate) const MINIMIZE: &str = "minimize";

/// The taxonomy ids of SPEC §1 (kept equal to `toolminimize_core::Category::ALL` by a test).
pub(crate) const CATEGORIES: [&str; 10] = [
    "health",
    "biometric",
    "sexual_life",
    "beliefs",
    "ethnicity",
    "criminal",
    "financial",
    "identity",
    "location",
    "demographic",
];

/// The exposure ids of SPEC §2.
pub(crate) const EXPOSURES: [&str; 3] = ["first_party", "third_party", "unknown"];

/// The levels `op = "generalize"` accepts in `to = "..."`.
pub(crate) const LEVELS: [&str; 5] = ["city", "region", "country", "year", "month"];

/// An `x-minimize` operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpKind {
    Keep,
    Remove,
    Generalize,
    Substitute,
    Truncate,
}

impl OpKind {
    const ALL: [(&'static str, OpKind); 5] = [
        ("keep", OpKind::Keep),
        ("remove", OpKind::Remove),
        ("generalize", OpKind::Generalize),
        ("substitute", OpKind::Substitute),
        ("truncate", OpKind::Truncate),
    ];

    fn parse(s: &str) -> Option<OpKind> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|(_, k)| *k)
    }
}

/// A value with the span of the token it came from.
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    pub(crate) value: T,
    pub(crate) span: Span,
}

/// `#[minimize(...)]` on a field.
#[derive(Debug, Default)]
pub(crate) struct FieldAttrs {
    /// The span of the `necessary` key.
    pub(crate) necessary: Option<Span>,
    pub(crate) category: Option<Spanned<String>>,
    pub(crate) sensitivity: Option<Spanned<u8>>,
    pub(crate) op: Option<Spanned<OpKind>>,
    pub(crate) to: Option<Spanned<String>>,
    pub(crate) max_chars: Option<Spanned<u64>>,
    /// Every valid key given, in order, with its span.
    pub(crate) keys: Vec<Spanned<String>>,
    /// The field carries a `#[minimize]` attribute, well-formed or not.
    pub(crate) annotated: bool,
}

/// `#[minimize(...)]` on the struct.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub(crate) exposure: Option<Spanned<String>>,
    pub(crate) krate: Option<syn::Path>,
}

fn minimize_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident(MINIMIZE))
}

/// Consumes the rest of one nested item (`= value`, `(...)`) up to the next top-level comma.
fn skip_item(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    meta.input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tt, next)) = rest.token_tree() {
            if matches!(&tt, TokenTree::Punct(p) if p.as_char() == ',') {
                return Ok(((), rest));
            }
            rest = next;
        }
        Ok(((), rest))
    })
}

/// The key of a nested item as written (`crate` included).
fn key_of(meta: &ParseNestedMeta<'_>) -> String {
    let p = &meta.path;
    if let Some(id) = p.get_ident() {
        return id.to_string();
    }
    quote::ToTokens::to_token_stream(p)
        .to_string()
        .replace(' ', "")
}

/// Parses `= <literal>`; `None` (with the error recorded) when there is no `=`.
fn literal(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    example: &str,
) -> syn::Result<Option<Lit>> {
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("expected a value for minimize attribute `{key}`: `{key} = {example}`"),
        );
        skip_item(meta)?;
        return Ok(None);
    }
    let lit: Lit = meta.value()?.parse()?;
    Ok(Some(lit))
}

fn string(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    example: &str,
) -> syn::Result<Option<LitStr>> {
    let shown = format!("\"{example}\"");
    Ok(match literal(cx, meta, key, &shown)? {
        Some(Lit::Str(s)) => Some(s),
        Some(other) => {
            cx.error_spanned_by(
                &other,
                format!(
                    "expected minimize attribute `{key}` to have a string value: `{key} = {shown}`"
                ),
            );
            None
        }
        None => None,
    })
}

fn integer(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    example: &str,
) -> syn::Result<Option<(u64, Span)>> {
    Ok(match literal(cx, meta, key, example)? {
        Some(Lit::Int(i)) => match i.base10_parse::<u64>() {
            Ok(n) => Some((n, i.span())),
            Err(_) => {
                cx.error_spanned_by(
                    &i,
                    format!("minimize attribute `{key}` must be a non-negative integer"),
                );
                None
            }
        },
        Some(other) => {
            cx.error_spanned_by(
                &other,
                format!("expected minimize attribute `{key}` to have an integer value: `{key} = {example}`"),
            );
            None
        }
        None => None,
    })
}

/// Records a duplicate key; `true` when the key is new.
fn first_time(
    cx: &Ctxt,
    keys: &mut Vec<Spanned<String>>,
    meta: &ParseNestedMeta<'_>,
    key: &str,
) -> bool {
    if keys.iter().any(|k| k.value == key) {
        cx.error_spanned_by(&meta.path, format!("duplicate minimize attribute `{key}`"));
        return false;
    }
    keys.push(Spanned {
        value: key.to_owned(),
        span: syn::spanned::Spanned::span(&meta.path),
    });
    true
}

fn one_of(cx: &Ctxt, lit: &LitStr, what: &str, allowed: &[&str]) -> Option<String> {
    let v = lit.value();
    if allowed.contains(&v.as_str()) {
        Some(v)
    } else {
        cx.error_spanned_by(
            lit,
            format!(
                "unknown {what} `{v}` (expected one of: {})",
                allowed.join(", ")
            ),
        );
        None
    }
}

impl FieldAttrs {
    /// Reads every `#[minimize(...)]` of a field.
    pub(crate) fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
        let mut out = FieldAttrs::default();
        for attr in minimize_attrs(attrs) {
            out.annotated = true;
            let res = attr.parse_nested_meta(|meta| {
                let key = key_of(&meta);
                match key.as_str() {
                    "necessary" => {
                        if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
                            cx.error_spanned_by(&meta.path, "minimize attribute `necessary` takes no value: `#[minimize(necessary)]`");
                            skip_item(&meta)?;
                        }
                        if first_time(cx, &mut out.keys, &meta, &key) {
                            out.necessary = Some(syn::spanned::Spanned::span(&meta.path));
                        }
                    }
                    "category" => {
                        let fresh = first_time(cx, &mut out.keys, &meta, &key);
                        if let Some(lit) = string(cx, &meta, &key, "health")?
                            && let Some(v) = one_of(cx, &lit, "category", &CATEGORIES)
                            && fresh
                        {
                            out.category = Some(Spanned { value: v, span: lit.span() });
                        }
                    }
                    "sensitivity" => {
                        let fresh = first_time(cx, &mut out.keys, &meta, &key);
                        if let Some((n, span)) = integer(cx, &meta, &key, "3")? {
                            match u8::try_from(n).ok().filter(|n| (1..=4).contains(n)) {
                                Some(level) if fresh => out.sensitivity = Some(Spanned { value: level, span }),
                                Some(_) => {}
                                None => cx.syn_error(syn::Error::new(
                                    span,
                                    format!("sensitivity must be 1 (low) to 4 (critical), got {n}"),
                                )),
                            }
                        }
                    }
                    "op" => {
                        let fresh = first_time(cx, &mut out.keys, &meta, &key);
                        if let Some(lit) = string(cx, &meta, &key, "generalize")? {
                            match OpKind::parse(&lit.value()) {
                                Some(op) if fresh => out.op = Some(Spanned { value: op, span: lit.span() }),
                                Some(_) => {}
                                None => cx.error_spanned_by(
                                    &lit,
                                    format!(
                                        "unknown minimize op `{}` (expected one of: keep, remove, generalize, substitute, truncate)",
                                        lit.value()
                                    ),
                                ),
                            }
                        }
                    }
                    "to" => {
                        let fresh = first_time(cx, &mut out.keys, &meta, &key);
                        if let Some(lit) = string(cx, &meta, &key, "city")?
                            && let Some(v) = one_of(cx, &lit, "generalization level", &LEVELS)
                            && fresh
                        {
                            out.to = Some(Spanned { value: v, span: lit.span() });
                        }
                    }
                    "max_chars" => {
                        let fresh = first_time(cx, &mut out.keys, &meta, &key);
                        if let Some((n, span)) = integer(cx, &meta, &key, "200")? {
                            if n == 0 {
                                cx.syn_error(syn::Error::new(span, "`max_chars` must be at least 1"));
                            } else if fresh {
                                out.max_chars = Some(Spanned { value: n, span });
                            }
                        }
                    }
                    "exposure" | "crate" => {
                        cx.error_spanned_by(
                            &meta.path,
                            format!("minimize attribute `{key}` belongs on the struct, not on a field"),
                        );
                        skip_item(&meta)?;
                    }
                    _ => {
                        cx.error_spanned_by(
                            &meta.path,
                            format!(
                                "unknown minimize field attribute `{key}` (expected one of: necessary, category, sensitivity, op, to, max_chars)"
                            ),
                        );
                        skip_item(&meta)?;
                    }
                }
                Ok(())
            });
            if let Err(e) = res {
                cx.syn_error(e);
            }
        }
        out
    }
}

impl ContainerAttrs {
    /// Reads every `#[minimize(...)]` of the struct.
    pub(crate) fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
        let mut out = ContainerAttrs::default();
        let mut keys = Vec::new();
        for attr in minimize_attrs(attrs) {
            let res = attr.parse_nested_meta(|meta| {
                let key = key_of(&meta);
                match key.as_str() {
                    "exposure" => {
                        let fresh = first_time(cx, &mut keys, &meta, &key);
                        if let Some(lit) = string(cx, &meta, &key, "third_party")?
                            && let Some(v) = one_of(cx, &lit, "exposure", &EXPOSURES)
                            && fresh
                        {
                            out.exposure = Some(Spanned { value: v, span: lit.span() });
                        }
                    }
                    "crate" => {
                        let fresh = first_time(cx, &mut keys, &meta, &key);
                        if let Some(lit) = string(cx, &meta, &key, "toolminimize")? {
                            match lit.parse::<syn::Path>() {
                                Ok(p) if fresh => out.krate = Some(p),
                                Ok(_) => {}
                                Err(_) => cx.error_spanned_by(
                                    &lit,
                                    format!("`crate = \"{}\"` is not a path", lit.value()),
                                ),
                            }
                        }
                    }
                    "necessary" | "category" | "sensitivity" | "op" | "to" | "max_chars" => {
                        cx.error_spanned_by(
                            &meta.path,
                            format!("minimize attribute `{key}` belongs on a field, not on the struct"),
                        );
                        skip_item(&meta)?;
                    }
                    _ => {
                        cx.error_spanned_by(
                            &meta.path,
                            format!("unknown minimize container attribute `{key}` (expected one of: exposure, crate)"),
                        );
                        skip_item(&meta)?;
                    }
                }
                Ok(())
            });
            if let Err(e) = res {
                cx.syn_error(e);
            }
        }
        out
    }
}
