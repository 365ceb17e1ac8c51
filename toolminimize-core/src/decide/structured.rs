//! Structured values: a field keeps the data it exists to carry (a recipient's address, a
//! passenger's name, a card number in a payment's card field); a remark appended to such a
//! value ("Ana Ruiz (vegan, on parole)") is a span of its own.

use super::{CallView, Decision, FieldCtx, Op, Rule, covers_value, is_special, key_carries};
use crate::decide::field::FieldRole;
use crate::item::{PsdItem, PsdKind};

pub(super) fn decide(cv: &CallView<'_>, f: &FieldCtx<'_>, item: &PsdItem) -> Decision {
    let carries = f.role.carries(item.kind) || key_carries(f.schema_key, item.kind);
    let whole = covers_value(f.text, item);
    if carries {
        return Decision::keep(if f.needed {
            Rule::RequiredField
        } else {
            Rule::FieldCarriesThisData
        });
    }
    let text = f.text.unwrap_or_default();
    if !whole
        && carries_people(f.role)
        && !super::heads_value(text, item)
        && !in_first_part(text, item)
    {
        // "Name (remark)" in a field of names: the remark is not the name. What heads it is
        // ("Cardiology - Dr. Okafor's team": the department addressed).
        return Decision::drop(Op::RemoveClause, Rule::RemarkOnValue);
    }
    if whole {
        // A public repository or channel does not take a private person's name in a field
        // it does not name for people.
        if item.kind == PsdKind::PersonName && cv.kind.writes_publicly() {
            return Decision::drop(Op::Substitute, Rule::PublicWrite);
        }
        return Decision::keep(if is_special(item) && f.needed {
            // The disease to look up, the item to order: what the call is about.
            Rule::PurposeArgument
        } else if f.needed {
            Rule::RequiredField
        } else {
            Rule::FieldCarriesThisData
        });
    }
    // Part of a short value: a remark in parentheses is not the value; the rest is what the
    // field says (an item to order, a specialty to search for).
    if (in_parentheses(text, item) && !glosses_value(f, text, item))
        || in_personal_appendix(text, item)
    {
        return Decision::drop(Op::RemoveClause, Rule::RemarkOnValue);
    }
    // What heads the value is what the field names ("Cardiology - Dr. Okafor's team" in a
    // recipient field, "Dermatology (in-network)"): the remarks after it are not.
    if is_special(item) && !f.needed && !super::heads_value(text, item) {
        return Decision::drop(Op::RemoveSpan, Rule::RemarkOnValue);
    }
    Decision::keep(Rule::PurposeArgument)
}

/// Whether `item` lies in the value's first part, before any bracket, comma, semicolon,
/// colon or spaced dash: a word of what the value names ("School nurse", "Head of HR"), not a
/// remark appended to it ("Ana Ruiz (nurse)").
fn in_first_part(text: &str, item: &PsdItem) -> bool {
    let head_end = super::head_end(text, &["(", ",", ";", ":", "[", " - ", " – ", " — "]);
    item.span.as_ref().is_some_and(|s| s.end <= head_end)
}

/// Whether `item`, in a field of symptoms or needs, is a bracket that holds nothing but a
/// term of health ("noisy breathing (stridor)"): it glosses the value, it is the value too.
pub(super) fn glosses_value(f: &FieldCtx<'_>, text: &str, item: &PsdItem) -> bool {
    (super::holds_requirements(f.schema_key)
        || super::holds_requirements(crate::schema::parent_key(f.path)))
        && item.category == crate::taxonomy::Category::Health
        && item.span.as_ref().is_some_and(|s| {
            let before = text.get(..s.start).unwrap_or_default().trim_end();
            let after = text.get(s.end..).unwrap_or_default().trim_start();
            before.ends_with('(') && after.starts_with(')')
        })
}

/// Whether `item` is all a bracket holds ("Sclerosi laterale amiotrofica (SLA)").
pub(super) fn bracket_holds_only(text: &str, item: &PsdItem) -> bool {
    item.span.as_ref().is_some_and(|s| {
        let before = text.get(..s.start).unwrap_or_default().trim_end();
        let after = text.get(s.end..).unwrap_or_default().trim_start();
        before.ends_with(['(', '[', '（']) && after.starts_with([')', ']', '）'])
    })
}

/// Whether `item` stands in an appendix after a spaced dash that reads as someone's details
/// ("Gastroenterology - flare, colonoscopy overdue", "Dentistry - patient on methadone"): a
/// list, or a word for a person.
pub(super) fn in_personal_appendix(text: &str, item: &PsdItem) -> bool {
    let Some(s) = item.span.as_ref() else {
        return false;
    };
    let Some(dash) = text.find(" - ").or_else(|| text.find(" – ")) else {
        return false;
    };
    if s.start <= dash {
        return false;
    }
    let tail = text.get(dash..).unwrap_or_default();
    let words = crate::text::words::words(tail);
    let v = crate::decide::vocab::vocab();
    tail.contains(',')
        || [
            crate::decide::vocab::WordSet::PersonRef,
            crate::decide::vocab::WordSet::FirstPerson,
            crate::decide::vocab::WordSet::PersonalTurn,
        ]
        .iter()
        .any(|set| v.set(*set).any_in(&words, tail))
}

pub(super) fn in_parentheses(text: &str, item: &PsdItem) -> bool {
    item.span.as_ref().is_some_and(|s| {
        let head = text.get(..s.start).unwrap_or_default();
        head.matches(['(', '[', '（', '【']).count() > head.matches([')', ']', '）', '】']).count()
    })
}

const fn carries_people(role: FieldRole) -> bool {
    matches!(
        role,
        FieldRole::PersonName | FieldRole::Recipient | FieldRole::Email | FieldRole::Phone
    )
}
