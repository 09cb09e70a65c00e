//! The referee's desk. Every tool calls the same engine code the tables use.
//!
//! - [`deal`]: `paiju deal` re-deals a board from its seed; [`judge`]: `paiju judge` answers rule
//!   questions.
//! - [`replayed`]: a stored table checked (its hash chain) and re-applied through its engine,
//!   entry by entry with each entry's actor: what every tool below starts from.
//! - [`replay`]: `paiju replay`, the game as it happened, every hand shown, in Chinese or
//!   English or as JSON; `--at N` the full state after action N.
//! - [`explain`]: `paiju explain`, why a logged action was legal (the rules that bound it, the
//!   alternatives the engine refuses), or why a hypothetical one would be refused.
//! - [`board_file`]: the plain-text board format (docs/referee.md), `paiju export` and
//!   `paiju import`.
//! - [`record_card`]: `paiju record-card`, the 升级双人赛随牌记录卡 of an 80分 board as
//!   printable HTML.
//! - [`words`]: events and actions told in Chinese and English; [`lang`], [`args`]: the small
//!   pieces.

pub mod args;
pub mod board_file;
pub mod deal;
pub mod explain;
pub mod judge;
pub mod lang;
pub mod record_card;
pub mod replay;
pub mod replayed;
pub mod words;

/// Reads `--name value` pairs; an unknown flag or a missing value is an error.
pub fn flags<'a>(
    args: &'a [String],
    known: &[&str],
) -> Result<std::collections::HashMap<&'a str, &'a str>, String> {
    let mut out = std::collections::HashMap::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let name = flag
            .strip_prefix("--")
            .filter(|n| known.contains(n))
            .ok_or_else(|| {
                format!(
                    "unknown argument {flag:?} (expected one of --{})",
                    known.join(", --")
                )
            })?;
        let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
        out.insert(name, value.as_str());
    }
    Ok(out)
}
