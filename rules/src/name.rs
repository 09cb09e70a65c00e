//! 名字 (display names): the name a person sits at a table, or enters an event, under. One rule
//! for the lobby, the events and the practice sets: NFC (so one name has one form whichever way it
//! was typed), without invisible or control characters, trimmed, 1 to 24 characters, and not a
//! name the tables keep for their computer seats.

use unicode_normalization::UnicodeNormalization;

use crate::Explain;

/// What the tables call their computer seats: 「电脑·」 and the seat (「电脑·东」, 「电脑·A2」), so
/// players tell them apart. No person's name starts so.
pub const COMPUTER_PREFIX: &str = "电脑·";

/// Names kept for computers as a whole.
const RESERVED: [&str; 4] = ["机器人", "bot", "Bot", "电脑"];

/// Longest name, in characters.
pub const MAX_CHARS: usize = 24;

/// Why a name is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameFault {
    /// Not 1 to [`MAX_CHARS`] characters once cleaned.
    Length,
    /// Kept for the computer seats.
    Reserved { name: String },
}

impl Explain for NameFault {
    fn code(&self) -> &'static str {
        "bad_name"
    }

    fn zh(&self) -> String {
        match self {
            NameFault::Length => format!("名字要 1 到 {MAX_CHARS} 个字"),
            NameFault::Reserved { name } => format!("「{name}」是留给机器人的名字，请换一个"),
        }
    }

    fn en(&self) -> String {
        match self {
            NameFault::Length => format!("a name is 1 to {MAX_CHARS} characters"),
            NameFault::Reserved { name } => {
                format!("\"{name}\" is reserved for bots: choose another name")
            }
        }
    }
}

/// Characters that change how a name looks without being seen: bidi embeddings, overrides and
/// isolates (which can make a name read backwards), marks, zero-width characters and the BOM.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' // zero-width space, non-joiner, joiner; LRM, RLM
        | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
        | '\u{2066}'..='\u{2069}' // bidi isolates
        | '\u{2060}' // word joiner
        | '\u{061C}' // Arabic letter mark (a bidi mark)
        | '\u{FEFF}' // byte order mark
        | '\u{2028}' | '\u{2029}' // line and paragraph separators
    ) || c.is_control()
}

/// A display name as shown and stored, or why it is refused.
pub fn display_name(raw: &str) -> Result<String, NameFault> {
    let cleaned: String = raw.chars().filter(|&c| !invisible(c)).nfc().collect();
    let name = cleaned.trim().to_string();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_CHARS {
        return Err(NameFault::Length);
    }
    if RESERVED.contains(&name.as_str()) || name.starts_with(COMPUTER_PREFIX) {
        return Err(NameFault::Reserved { name });
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_and_checked() {
        assert_eq!(display_name("  王\u{200B}芳 ").unwrap(), "王芳");
        // One form whichever way it was typed: e + combining acute is é.
        assert_eq!(display_name("Rene\u{301}").unwrap(), "René");
        assert_eq!(display_name(" \u{202E} "), Err(NameFault::Length));
        assert_eq!(display_name(&"字".repeat(25)), Err(NameFault::Length));
        assert!(display_name(&"字".repeat(24)).is_ok());
        for kept in ["电脑", "电脑·东", "机器人", "bot"] {
            assert!(
                matches!(display_name(kept), Err(NameFault::Reserved { .. })),
                "{kept}"
            );
        }
    }
}
