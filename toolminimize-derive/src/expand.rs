//! Checks the input and generates the `MinimizeSchema` and `Annotate` impls.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use serde_derive_internals::ast::{Container, Data, Style};
use serde_derive_internals::{Ctxt, Derive};
use syn::punctuated::Punctuated;
use syn::{Attribute, DeriveInput, Ident, Meta, Token, parse_quote};

use crate::attr::{ContainerAttrs, FieldAttrs, OpKind};
use crate::shape::{Shape, named_types, shape};

/// One serialized property with its annotations.
struct Property {
    name: String,
    attrs: FieldAttrs,
}

/// What the impl needs from one field.
enum Nested {
    /// Types named by the field at property `name`.
    Property(String, Vec<syn::Type>),
    /// Types named by a flattened field.
    Flattened(Vec<syn::Type>),
}

/// The crate path the generated code names: `#[minimize(crate = "...")]`, else the facade or the
/// core as the user's manifest names them, else `::toolminimize`.
fn crate_path(attrs: &ContainerAttrs) -> syn::Path {
    if let Some(p) = &attrs.krate {
        return p.clone();
    }
    use proc_macro_crate::{FoundCrate, crate_name};
    for (package, lib) in [
        ("toolminimize", "toolminimize"),
        ("toolminimize-core", "toolminimize_core"),
    ] {
        let name = match crate_name(package) {
            Ok(FoundCrate::Itself) => lib.to_owned(),
            Ok(FoundCrate::Name(n)) => n,
            Err(_) => continue,
        };
        let ident = Ident::new(&name, Span::call_site());
        return parse_quote!(::#ident);
    }
    parse_quote!(::toolminimize)
}

/// Rejects what the derive does not describe, before serde's parser sees it.
fn check_shape(cx: &Ctxt, input: &DeriveInput) -> bool {
    let name = &input.ident;
    match &input.data {
        syn::Data::Struct(s) => match &s.fields {
            syn::Fields::Named(_) => true,
            syn::Fields::Unnamed(f) => {
                cx.error_spanned_by(
                    f,
                    format!(
                        "`#[derive(MinimizeSchema)]` needs named fields: the tool's arguments are a JSON object whose properties are the fields; give the fields of `{name}` names"
                    ),
                );
                false
            }
            syn::Fields::Unit => {
                cx.error_spanned_by(
                    name,
                    format!(
                        "`#[derive(MinimizeSchema)]` needs named fields, and `{name}` has none"
                    ),
                );
                false
            }
        },
        syn::Data::Enum(e) => {
            cx.error_spanned_by(
                e.enum_token,
                format!(
                    "`#[derive(MinimizeSchema)]` describes a struct with named fields, and `{name}` is an enum; use the enum as a field's type and annotate that field"
                ),
            );
            false
        }
        syn::Data::Union(u) => {
            cx.error_spanned_by(
                u.union_token,
                "`#[derive(MinimizeSchema)]` does not support unions: serde cannot serialize them",
            );
            false
        }
    }
}

/// Rejects an `op` (or its parameter) the field's type cannot take.
fn check_op(cx: &Ctxt, field: &str, ty: &syn::Type, attrs: &FieldAttrs) {
    let shape = shape(ty);
    let given = |key: &str| attrs.keys.iter().any(|k| k.value == key);
    if let (Some(s), false) = (&attrs.sensitivity, given("category")) {
        cx.syn_error(syn::Error::new(
            s.span,
            "`sensitivity` replaces the default sensitivity of the data the field declares with `category`; add `category = \"...\"`",
        ));
    }
    if let Some(to) = &attrs.to
        && attrs
            .op
            .as_ref()
            .map_or(!given("op"), |o| o.value != OpKind::Generalize)
    {
        cx.syn_error(syn::Error::new(
            to.span,
            "`to` is the level of `op = \"generalize\"`; add `op = \"generalize\"` or remove `to`",
        ));
    }
    if let Some(n) = &attrs.max_chars
        && attrs
            .op
            .as_ref()
            .map_or(!given("op"), |o| o.value != OpKind::Truncate)
    {
        cx.syn_error(syn::Error::new(
            n.span,
            "`max_chars` is the length of `op = \"truncate\"`; add `op = \"truncate\"` or remove `max_chars`",
        ));
    }
    let Some(op) = &attrs.op else {
        return;
    };
    let what = shape.describe();
    let msg = match op.value {
        OpKind::Keep | OpKind::Remove => None,
        OpKind::Truncate if shape.scalar() => Some(format!(
            "`op = \"truncate\"` cuts text, but field `{field}` holds {what}; use `op = \"remove\"` or `\"keep\"`"
        )),
        OpKind::Substitute if shape.scalar() => Some(format!(
            "`op = \"substitute\"` replaces text with a placeholder, but field `{field}` holds {what}; use `op = \"remove\"` or `\"keep\"`"
        )),
        OpKind::Generalize if matches!(shape, Shape::Bool | Shape::Char) => Some(format!(
            "`op = \"generalize\"` needs something coarser to give, but field `{field}` holds {what}; use `op = \"remove\"` or `\"keep\"`"
        )),
        _ => None,
    };
    if let Some(msg) = msg {
        cx.syn_error(syn::Error::new(op.span, msg));
        return;
    }
    if let (OpKind::Generalize, Some(to)) = (op.value, &attrs.to) {
        let place = matches!(to.value.as_str(), "city" | "region" | "country");
        if place && shape.scalar() {
            cx.syn_error(syn::Error::new(
                to.span,
                format!(
                    "`to = \"{}\"` generalizes a place written as text, but field `{field}` holds {what}",
                    to.value
                ),
            ));
        }
    }
}

/// serde keywords that `#[schemars(...)]` overrides in the schema, as schemars's derive does.
const SCHEMARS_OVERRIDES: [&str; 7] = [
    "rename",
    "rename_all",
    "skip",
    "skip_serializing",
    "skip_deserializing",
    "flatten",
    "transparent",
];

fn keyword(meta: &Meta) -> Option<String> {
    meta.path().get_ident().map(ToString::to_string)
}

fn metas(attr: &Attribute) -> Option<Punctuated<Meta, Token![,]>> {
    attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        .ok()
}

/// Moves the naming and presence keywords of `#[schemars(...)]` into `#[serde(...)]`, replacing
/// serde's own, so serde's parser sees the names schemars puts in the schema.
fn schemars_overrides(attrs: &mut Vec<Attribute>) {
    let overrides: Vec<Meta> = attrs
        .iter()
        .filter(|a| a.path().is_ident("schemars"))
        .filter_map(metas)
        .flatten()
        .filter(|m| keyword(m).is_some_and(|k| SCHEMARS_OVERRIDES.contains(&k.as_str())))
        .collect();
    if overrides.is_empty() {
        return;
    }
    let replaced: Vec<String> = overrides.iter().filter_map(keyword).collect();
    let mut out = Vec::with_capacity(attrs.len() + 1);
    for attr in attrs.drain(..) {
        if !attr.path().is_ident("serde") {
            out.push(attr);
            continue;
        }
        let Some(list) = metas(&attr) else {
            out.push(attr);
            continue;
        };
        let kept: Vec<Meta> = list
            .into_iter()
            .filter(|m| keyword(m).is_none_or(|k| !replaced.contains(&k)))
            .collect();
        if !kept.is_empty() {
            out.push(parse_quote!(#[serde(#(#kept),*)]));
        }
    }
    out.push(parse_quote!(#[serde(#(#overrides),*)]));
    *attrs = out;
}

/// The input as schemars's derive reads it.
fn schemars_view(input: &DeriveInput) -> DeriveInput {
    let mut view = input.clone();
    schemars_overrides(&mut view.attrs);
    if let syn::Data::Struct(s) = &mut view.data {
        for f in s.fields.iter_mut() {
            schemars_overrides(&mut f.attrs);
        }
    }
    view
}

/// The impls, or every error at once.
pub(crate) fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::new();
    let cattrs = ContainerAttrs::from_attrs(&cx, &input.attrs);
    if !check_shape(&cx, input) {
        cx.check()?;
        return Ok(TokenStream::new());
    }

    // serde's own view of the fields: serialized names after `rename`/`rename_all`, `skip`,
    // `flatten`. Its errors are serde's to report, from serde's and schemars's derives.
    let serde_cx = Ctxt::new();
    let private = Ident::new("__private", Span::call_site());
    let view = schemars_view(input);
    let parsed = Container::from_ast(&serde_cx, &view, Derive::Deserialize, &private);
    let serde_ok = serde_cx.check().is_ok();
    let Some(container) = parsed.filter(|_| serde_ok) else {
        cx.check()?;
        return Ok(TokenStream::new());
    };
    if container.attrs.transparent() {
        cx.error_spanned_by(
            &input.ident,
            "`#[derive(MinimizeSchema)]` on a `#[serde(transparent)]` struct: its schema is the inner field's; derive `MinimizeSchema` on that type",
        );
    }
    let fields = match &container.data {
        Data::Struct(Style::Struct, fields) => fields,
        _ => {
            cx.check()?;
            return Ok(TokenStream::new());
        }
    };

    let mut properties = Vec::new();
    let mut nested = Vec::new();
    let mut said_anything = false;
    for f in fields {
        let attrs = FieldAttrs::from_attrs(&cx, &f.original.attrs);
        said_anything |= attrs.annotated;
        let rust_name = f
            .original
            .ident
            .as_ref()
            .map_or_else(String::new, ToString::to_string);
        let skipped = f.attrs.skip_deserializing();
        if skipped || f.attrs.flatten() {
            if let Some(first) = attrs.keys.first() {
                let msg = if skipped {
                    format!(
                        "`{}` on field `{rust_name}`, which serde skips: it never appears in the arguments; remove the annotation or the `skip`",
                        first.value
                    )
                } else {
                    format!(
                        "`{}` on field `{rust_name}`, which is flattened: its properties are those of its type; annotate the fields of that type instead",
                        first.value
                    )
                };
                cx.syn_error(syn::Error::new(first.span, msg));
            }
            if !skipped {
                nested.push(Nested::Flattened(named_types(f.ty)));
            }
            continue;
        }
        check_op(&cx, &rust_name, f.ty, &attrs);
        let name = f.attrs.name().deserialize_name().value.clone();
        nested.push(Nested::Property(name.clone(), named_types(f.ty)));
        properties.push(Property { name, attrs });
    }
    if !said_anything {
        cx.error_spanned_by(
            &input.ident,
            format!(
                "`{}` declares nothing about its fields, and without annotations every field counts as unnecessary: mark the fields the tool needs with `#[minimize(necessary)]`, and fields that carry personal data with `#[minimize(category = \"...\")]`",
                input.ident
            ),
        );
    }
    cx.check()?;
    Ok(generate(input, &cattrs, &properties, &nested))
}

fn option<T: ToTokens>(v: Option<T>) -> TokenStream {
    match v {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn generate(
    input: &DeriveInput,
    cattrs: &ContainerAttrs,
    properties: &[Property],
    nested: &[Nested],
) -> TokenStream {
    let krate = crate_path(cattrs);
    let private = quote!(#krate::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut where_clause = where_clause.cloned().unwrap_or_else(|| parse_quote!(where));
    // A generic type implements `JsonSchema` only for some arguments: bound the impls by it. A
    // concrete type without `JsonSchema` fails at `Annotate`'s supertrait instead.
    if input.generics.type_params().next().is_some() {
        where_clause
            .predicates
            .push(parse_quote!(Self: #private::HasJsonSchema));
    }

    let exposure = option(cattrs.exposure.as_ref().map(|e| e.value.as_str()));
    let necessary = properties
        .iter()
        .filter(|p| p.attrs.necessary.is_some())
        .map(|p| p.name.as_str());
    let fields = properties
        .iter()
        .filter(|p| p.attrs.category.is_some() || p.attrs.sensitivity.is_some() || p.attrs.op.is_some())
        .map(|p| {
            let name = &p.name;
            let category = option(p.attrs.category.as_ref().map(|c| c.value.as_str()));
            let sensitivity = option(p.attrs.sensitivity.as_ref().map(|s| s.value));
            let op = option(p.attrs.op.as_ref().map(|op| {
                let to = option(p.attrs.to.as_ref().map(|t| t.value.as_str()));
                let max = option(p.attrs.max_chars.as_ref().map(|m| m.value));
                match op.value {
                    OpKind::Keep => quote!(#private::Op::Keep),
                    OpKind::Remove => quote!(#private::Op::Remove),
                    OpKind::Substitute => quote!(#private::Op::Substitute),
                    OpKind::Generalize => quote!(#private::Op::Generalize(#to)),
                    OpKind::Truncate => quote!(#private::Op::Truncate(#max)),
                }
            }));
            quote! {
                #private::Field { name: #name, category: #category, sensitivity: #sensitivity, op: #op }
            }
        });
    let probes = nested.iter().flat_map(|n| match n {
        Nested::Property(name, types) => types
            .iter()
            .map(|t| quote!((&#private::Probe::<#t>::new()).nested(annotator, at, #name);))
            .collect::<Vec<_>>(),
        Nested::Flattened(types) => types
            .iter()
            .map(|t| quote!((&#private::Probe::<#t>::new()).flattened(annotator, at);))
            .collect(),
    });

    quote! {
        #[automatically_derived]
        impl #impl_generics #private::Annotate for #ident #ty_generics #where_clause {
            const SPEC: #private::Container = #private::Container {
                exposure: #exposure,
                necessary: &[#(#necessary),*],
                fields: &[#(#fields),*],
            };

            fn annotate(annotator: &mut #private::Annotator, at: &str) {
                #[allow(unused_imports)]
                use #private::{ViaAnnotate as _, ViaNothing as _};
                if !annotator.object::<Self>(at) {
                    return;
                }
                #(#probes)*
            }
        }

        #[automatically_derived]
        impl #impl_generics #krate::MinimizeSchema for #ident #ty_generics #where_clause {
            fn minimize_schema() -> #private::serde_json::Value {
                #private::minimize_schema::<Self>()
            }
        }
    }
}
