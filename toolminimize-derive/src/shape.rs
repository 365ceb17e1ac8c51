//! What a field's Rust type says about its JSON value, read from the syntax alone: enough to
//! reject an `op` that cannot apply (truncating an integer, generalizing a bool to a city), and
//! to list the types a field names so their own annotations are applied.

use syn::{GenericArgument, PathArguments, Type};

/// The JSON a field's value takes, after `Option`, references, smart pointers and sequences
/// (whose ops apply to each element).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Bool,
    Integer,
    Float,
    Char,
    Text,
    /// Anything else (a struct, an enum, a map, a type parameter, a type from another crate).
    Other,
}

impl Shape {
    /// How the shape reads in a message.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Shape::Bool => "a bool",
            Shape::Integer => "an integer",
            Shape::Float => "a number",
            Shape::Char => "a char",
            Shape::Text => "text",
            Shape::Other => "a value",
        }
    }

    /// A bool, a number or a char.
    pub(crate) fn scalar(self) -> bool {
        matches!(
            self,
            Shape::Bool | Shape::Integer | Shape::Float | Shape::Char
        )
    }
}

const INTEGERS: [&str; 24] = [
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "NonZeroI8",
    "NonZeroI16",
    "NonZeroI32",
    "NonZeroI64",
    "NonZeroI128",
    "NonZeroIsize",
    "NonZeroU8",
    "NonZeroU16",
    "NonZeroU32",
    "NonZeroU64",
    "NonZeroU128",
    "NonZeroUsize",
];
const TRANSPARENT: [&str; 7] = ["Option", "Box", "Rc", "Arc", "Cow", "Cell", "RefCell"];
const SEQUENCES: [&str; 6] = [
    "Vec",
    "VecDeque",
    "HashSet",
    "BTreeSet",
    "LinkedList",
    "BinaryHeap",
];
const TEXT: [&str; 4] = ["String", "str", "OsString", "PathBuf"];

fn ungroup(mut ty: &Type) -> &Type {
    loop {
        ty = match ty {
            Type::Group(g) => &g.elem,
            Type::Paren(p) => &p.elem,
            _ => return ty,
        };
    }
}

/// The first type argument of the last path segment.
fn first_type_arg(args: &PathArguments) -> Option<&Type> {
    match args {
        PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        }),
        _ => None,
    }
}

/// The shape of a field's type.
pub(crate) fn shape(ty: &Type) -> Shape {
    shape_at(ty, 0)
}

fn shape_at(ty: &Type, depth: usize) -> Shape {
    if depth > 16 {
        return Shape::Other;
    }
    match ungroup(ty) {
        Type::Reference(r) => shape_at(&r.elem, depth + 1),
        Type::Array(a) => shape_at(&a.elem, depth + 1),
        Type::Slice(s) => shape_at(&s.elem, depth + 1),
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return Shape::Other;
            };
            let name = last.ident.to_string();
            let name = name.as_str();
            if name == "bool" {
                Shape::Bool
            } else if INTEGERS.contains(&name) {
                Shape::Integer
            } else if name == "f32" || name == "f64" {
                Shape::Float
            } else if name == "char" {
                Shape::Char
            } else if TEXT.contains(&name) {
                Shape::Text
            } else if TRANSPARENT.contains(&name) || SEQUENCES.contains(&name) {
                first_type_arg(&last.arguments).map_or(Shape::Other, |t| shape_at(t, depth + 1))
            } else {
                Shape::Other
            }
        }
        _ => Shape::Other,
    }
}

/// Every type a field's type names that could derive `MinimizeSchema` itself: the type and its
/// type arguments, recursively, without duplicates and without primitives.
pub(crate) fn named_types(ty: &Type) -> Vec<Type> {
    let mut out: Vec<Type> = Vec::new();
    collect(ty, &mut out, 0);
    out
}

fn collect(ty: &Type, out: &mut Vec<Type>, depth: usize) {
    if depth > 16 {
        return;
    }
    match ungroup(ty) {
        Type::Reference(r) => collect(&r.elem, out, depth + 1),
        Type::Array(a) => collect(&a.elem, out, depth + 1),
        Type::Slice(s) => collect(&s.elem, out, depth + 1),
        Type::Tuple(t) => {
            for e in &t.elems {
                collect(e, out, depth + 1);
            }
        }
        t @ Type::Path(p) => {
            let plain = p.qself.is_none();
            let leaf = p.path.segments.last();
            let primitive = plain
                && p.path.segments.len() == 1
                && leaf.is_some_and(|l| {
                    let n = l.ident.to_string();
                    l.arguments.is_none()
                        && (n == "bool"
                            || n == "char"
                            || n == "f32"
                            || n == "f64"
                            || n == "String"
                            || n == "str"
                            || INTEGERS.contains(&n.as_str()))
                });
            if !primitive {
                let key = quote::ToTokens::to_token_stream(t).to_string();
                if !out
                    .iter()
                    .any(|o| quote::ToTokens::to_token_stream(o).to_string() == key)
                {
                    out.push(t.clone());
                }
            }
            if let Some(PathArguments::AngleBracketed(a)) = leaf.map(|l| &l.arguments) {
                for g in &a.args {
                    if let GenericArgument::Type(inner) = g {
                        collect(inner, out, depth + 1);
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Type {
        syn::parse_str(s).unwrap()
    }

    #[test]
    fn shapes_see_through_options_pointers_and_sequences() {
        assert_eq!(shape(&ty("u32")), Shape::Integer);
        assert_eq!(shape(&ty("Option<bool>")), Shape::Bool);
        assert_eq!(shape(&ty("Option<Vec<String>>")), Shape::Text);
        assert_eq!(shape(&ty("std::borrow::Cow<'static, str>")), Shape::Text);
        assert_eq!(shape(&ty("&'a str")), Shape::Text);
        assert_eq!(shape(&ty("[f64; 2]")), Shape::Float);
        assert_eq!(shape(&ty("HashMap<String, u8>")), Shape::Other);
        assert_eq!(shape(&ty("Address")), Shape::Other);
    }

    #[test]
    fn named_types_lists_wrappers_and_arguments_but_not_primitives() {
        let names: Vec<String> = named_types(&ty("Option<Vec<Patient>>"))
            .iter()
            .map(|t| {
                quote::ToTokens::to_token_stream(t)
                    .to_string()
                    .replace(' ', "")
            })
            .collect();
        assert_eq!(names, ["Option<Vec<Patient>>", "Vec<Patient>", "Patient"]);
        assert!(named_types(&ty("String")).is_empty());
        assert_eq!(named_types(&ty("(u8, Address)")).len(), 1);
    }
}
