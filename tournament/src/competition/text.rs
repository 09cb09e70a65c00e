//! The texts a director or a captain types (names, reasons, notes): trimmed, without control
//! characters, 1 to a field's most characters.

use super::error::{Error, Field};

/// Longest reason or note, in characters.
pub const MAX_REASON: usize = 200;
/// Longest organisation or team name.
pub const MAX_NAME: usize = 40;
/// Longest competition name.
pub const MAX_TITLE: usize = 60;

/// `raw` cleaned, or why it is refused.
pub fn text(raw: &str, max: usize, field: Field) -> Result<String, Error> {
    let s: String = raw.chars().filter(|c| !c.is_control()).collect();
    let s = s.trim().to_string();
    let n = s.chars().count();
    if n == 0 || n > max {
        return Err(Error::Text { field, max });
    }
    Ok(s)
}

/// An optional text: blank is none.
pub fn optional(raw: &Option<String>, max: usize, field: Field) -> Result<Option<String>, Error> {
    match raw {
        Some(o) if !o.trim().is_empty() => text(o, max, field).map(Some),
        _ => Ok(None),
    }
}

/// A reason (the director's).
pub fn reason(raw: &str) -> Result<String, Error> {
    text(raw, MAX_REASON, Field::Reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_trimmed_and_bounded() {
        assert_eq!(text(" 迟到\u{7} ", 10, Field::Reason).unwrap(), "迟到");
        assert_eq!(
            text("  ", 10, Field::Reason),
            Err(Error::Text {
                field: Field::Reason,
                max: 10
            })
        );
        assert!(text(&"字".repeat(11), 10, Field::Note).is_err());
        assert_eq!(optional(&Some(" ".into()), 10, Field::Note), Ok(None));
    }
}
