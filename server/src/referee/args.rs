//! The referee commands' arguments: positionals (a table id, a seq, a file), `--name value`
//! options and `--switch`es. An unknown flag or a missing value is an error.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use super::lang::Lang;

/// Parsed arguments of one command.
#[derive(Debug, Default)]
pub struct Args {
    /// What is not a flag, in order.
    pub positional: Vec<String>,
    values: HashMap<String, String>,
    switches: HashSet<String>,
}

impl Args {
    /// Parses `args` for a command that takes the options `values` (each with a value) and the
    /// switches `switches` (without).
    pub fn parse(args: &[String], values: &[&str], switches: &[&str]) -> Result<Args, String> {
        let mut out = Args::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(name) = a.strip_prefix("--") else {
                out.positional.push(a.clone());
                continue;
            };
            // `--name=value` too.
            let (name, inline) = match name.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (name, None),
            };
            if values.contains(&name) {
                let v = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("--{name} needs a value"))?,
                };
                out.values.insert(name.to_string(), v);
            } else if switches.contains(&name) && inline.is_none() {
                out.switches.insert(name.to_string());
            } else {
                let known: Vec<String> = values
                    .iter()
                    .map(|v| format!("--{v} VALUE"))
                    .chain(switches.iter().map(|s| format!("--{s}")))
                    .collect();
                return Err(format!(
                    "unknown argument {a:?} (expected {})",
                    known.join(", ")
                ));
            }
        }
        Ok(out)
    }

    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    pub fn switch(&self, name: &str) -> bool {
        self.switches.contains(name)
    }

    /// `--db FILE`, by default `paiju.db`.
    pub fn db(&self) -> PathBuf {
        PathBuf::from(self.value("db").unwrap_or("paiju.db"))
    }

    /// `--lang zh|en`, by default Chinese.
    pub fn lang(&self) -> Result<Lang, String> {
        self.value("lang").map(Lang::parse).unwrap_or(Ok(Lang::Zh))
    }

    /// Exactly `n` positionals, named in the error.
    pub fn positionals(&self, names: &[&str]) -> Result<&[String], String> {
        if self.positional.len() == names.len() {
            Ok(&self.positional)
        } else {
            Err(format!(
                "expected {} (got {:?})",
                names.join(" "),
                self.positional
            ))
        }
    }

    /// A whole-number option.
    pub fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.value(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("--{name}: {v:?} is not a whole number"))
            })
            .transpose()
    }
}
