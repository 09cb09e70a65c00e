//! The referee's tools: `deal` re-deals a board from its seed, `judge` answers rule questions.
//! They call the same engine code the tables use.

pub mod deal;
pub mod judge;

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
