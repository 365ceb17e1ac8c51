//! Runs the stages for one call.

use crate::analyze::schema::SchemaIndex;
use crate::pipeline::{Call, Inner, Outcome, Verdict};
use crate::report::Report;

pub(crate) fn run(inner: &Inner, call: &Call<'_>) -> Result<Outcome, &'static str> {
    let schema = SchemaIndex::build(call.tool.input_schema(), call.arguments);
    let _items = inner.classifier.classify(call.arguments, &schema);
    Ok(Outcome {
        verdict: Verdict::Forward(call.arguments.clone()),
        report: Report::default(),
    })
}
