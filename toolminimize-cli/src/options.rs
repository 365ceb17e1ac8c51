//! Options shared by the subcommands: policy file, strict mode, default exposure.

use std::path::PathBuf;

use clap::Args as ClapArgs;
use toolminimize_core::{Exposure, Minimizer, Policy};

/// Policy options.
#[derive(Debug, Clone, ClapArgs)]
pub(crate) struct PolicyArgs {
    /// A policy file (JSON) with any of: "strict", "fail_mode" ("closed" blocks a call the
    /// pipeline fails on, "open" forwards it), "exposure" (tool name → exposure),
    /// "default_exposure", "allowed_actions", "allow" (terms never reported), "deny" (terms
    /// always reported, with a category), "block" (tools to block, or a cost limit after
    /// rewriting), "honour_task_context". Unknown keys are rejected.
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// Treat every detected item as unnecessary, whatever the schema says: everything
    /// sensitive is rewritten. Overrides the policy file's "strict".
    #[arg(long)]
    pub(crate) strict: bool,
    /// Exposure of calls that declare none (neither on the line nor as `x-exposure` in the
    /// tool's schema): first_party (weight 1), third_party or unknown (weight 2).
    /// Overrides the policy file's "default_exposure".
    #[arg(long, value_name = "EXPOSURE", value_parser = parse_exposure)]
    pub(crate) default_exposure: Option<Exposure>,
}

fn parse_exposure(s: &str) -> Result<Exposure, String> {
    s.parse()
        .map_err(|e: toolminimize_core::taxonomy::UnknownId| e.to_string())
}

impl PolicyArgs {
    /// Builds the minimizer these options describe.
    pub(crate) fn minimizer(&self) -> Result<Minimizer, String> {
        let mut policy = match &self.policy {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read policy {}: {e}", path.display()))?;
                Policy::from_json_str(&text).map_err(|e| format!("{}: {e}", path.display()))?
            }
            None => Policy::default(),
        };
        if self.strict {
            policy.strict = true;
        }
        if let Some(e) = self.default_exposure {
            policy.default_exposure = e;
        }
        Minimizer::builder()
            .policy(policy)
            .build()
            .map_err(|e| e.to_string())
    }
}
