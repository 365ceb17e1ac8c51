#![doc = include_str!("../attributes.md")]
#![forbid(unsafe_code)]

mod attr;
mod expand;
mod shape;

use proc_macro::TokenStream;

/// Implements `MinimizeSchema` for a struct with named fields that also derives
/// `schemars::JsonSchema`; see the [crate documentation](crate) for the attributes.
#[proc_macro_derive(MinimizeSchema, attributes(minimize))]
pub fn derive_minimize_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
