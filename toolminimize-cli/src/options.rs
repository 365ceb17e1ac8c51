//! Options shared by the subcommands: policy file, strict mode, default exposure.

use std::path::PathBuf;

use clap::Args as ClapArgs;
use toolminimize_core::{Exposure, Minimizer, Policy};

/// Policy options.
#[derive(Debug, Clone, ClapArgs)]
pub(crate) struct PolicyArgs {
    /// A policy file (JSON): strict mode, fail mode, per-tool exposure, allowed actions,
    /// allow- and deny-lists, blocking rules.
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// Treat every detected item as unnecessary (redact everything sensitive).
    #[arg(long)]
    pub(crate) strict: bool,
    /// Exposure of calls that do not declare one: first_party, third_party or unknown.
    #[arg(long, value_name = "EXPOSURE", value_parser = parse_exposure)]
    pub(crate) default_exposure: Option<Exposure>,
}

fn parse_exposure(s: &str) -> Result<Exposure, String> {
    s.parse().map_err(|e: toolminimize_core::taxonomy::UnknownId| e.to_string())
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
        Minimizer::builder().policy(policy).build().map_err(|e| e.to_string())
    }
}
