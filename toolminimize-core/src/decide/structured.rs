//! Structured values: a field keeps the data it exists to carry (a recipient's address, a
//! passenger's name, a card number in a payment's card field); a remark appended to such a
//! value ("Ana Ruiz (vegan, on parole)") is a span of its own.

use super::{CallView, Decision, FieldCtx, Op, Rule, is_special, key_carries};
use crate::decide::field::FieldRole;
use crate::item::{PsdItem, PsdKind};

pub(super) fn decide(cv: &CallView<'_>, f: &FieldCtx<'_>, item: &PsdItem) -> Decision {
    let carries = f.role.carries(item.kind) || key_carries(f.info, item.kind);
    let whole = f.text.is_none_or(|t| {
        item.span
            .as_ref()
            .is_none_or(|s| s.len() + 2 >= t.trim().len())
    });
    if carries {
        return Decision::keep(if f.needed {
            Rule::RequiredField
        } else {
            Rule::FieldCarriesThisData
        });
    }
    if !whole && carries_people(f.role) {
        // "Name (remark)" in a field of names: the remark is not the name.
        return Decision::drop(Op::RemoveClause, Rule::RemarkOnValue);
    }
    if whole {
        // A public repository or channel does not take a private person's name in a field
        // it does not name for people.
        if item.kind == PsdKind::PersonName && cv.kind.writes_publicly() {
            return Decision::drop(Op::Substitute, Rule::PublicWrite);
        }
        return Decision::keep(if f.needed {
            Rule::RequiredField
        } else {
            Rule::FieldCarriesThisData
        });
    }
    // Part of a short value: a remark in parentheses is not the value; the rest is what the
    // field says (an item to order, a specialty to search for).
    if in_parentheses(f.text.unwrap_or_default(), item) {
        return Decision::drop(Op::RemoveClause, Rule::RemarkOnValue);
    }
    if is_special(item) && !f.needed {
        return Decision::drop(Op::RemoveSpan, Rule::RemarkOnValue);
    }
    Decision::keep(Rule::PurposeArgument)
}

fn in_parentheses(text: &str, item: &PsdItem) -> bool {
    item.span.as_ref().is_some_and(|s| {
        let head = text.get(..s.start).unwrap_or_default();
        head.matches(['(', '[']).count() > head.matches([')', ']']).count()
    })
}

const fn carries_people(role: FieldRole) -> bool {
    matches!(
        role,
        FieldRole::PersonName | FieldRole::Recipient | FieldRole::Email | FieldRole::Phone
    )
}
