//! 名字 (display names): the name a person sits at a table, or enters an event, under. One rule
//! for the lobby, the events and the practice sets: NFC (so one name has one form whichever way it
//! was typed), without invisible or control characters, trimmed, 1 to 24 characters, and not a
//! name that looks like one the tables keep for their computer seats.
//!
//! "Looks like" is decided on a folded form ([`look_alike`]), never on the name as typed: a
//! player who can sit as 「電腦」, 「电脑•东」, 「ｂｏｔ」 or 「Bоt」 (a Cyrillic о) passes for a computer
//! to the older players at the table, who cannot tell the characters apart.

use unicode_normalization::UnicodeNormalization;

use crate::Explain;

/// What the tables call their computer seats: 「电脑·」 and the seat (「电脑·东」, 「电脑·A2」), so
/// players tell them apart. No person's name starts so.
pub const COMPUTER_PREFIX: &str = "电脑·";

/// Names kept for computers as a whole, in their folded form ([`look_alike`]): any case,
/// width, script or spacing of them is refused.
const RESERVED: [&str; 3] = ["机器人", "bot", "电脑"];

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
    let folded = look_alike(&name);
    if RESERVED.contains(&folded.as_str()) || folded.starts_with(&look_alike(COMPUTER_PREFIX)) {
        return Err(NameFault::Reserved { name });
    }
    Ok(name)
}

/// The form in which two names look the same to a reader: compatibility forms folded (NFKC:
/// fullwidth ｂｏｔ is bot, halfwidth ･ is ・), case folded, no spaces, letters of other scripts
/// that are drawn like a Latin letter mapped to it, traditional forms of the reserved words
/// mapped to the simplified, and every middle dot one dot. Only for comparing: a name is stored
/// as typed (cleaned).
pub fn look_alike(name: &str) -> String {
    name.nfkc()
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_whitespace())
        .map(same_looking)
        .collect()
}

/// One character as the character it is drawn like (itself if none).
fn same_looking(c: char) -> char {
    match c {
        // Cyrillic letters drawn like Latin ones (as lower case, or as their capital: Н is H).
        'а' => 'a',
        'в' => 'b',
        'с' => 'c',
        'ԁ' => 'd',
        'е' | 'ё' => 'e',
        'һ' | 'н' => 'h',
        'і' | 'ї' => 'i',
        'ј' => 'j',
        'к' => 'k',
        'ӏ' => 'l',
        'м' => 'm',
        'о' => 'o',
        'р' => 'p',
        'ѕ' => 's',
        'т' => 't',
        'х' => 'x',
        'у' => 'y',
        // Greek, likewise (Β is B, Ν is N, Τ is T).
        'α' => 'a',
        'β' => 'b',
        'ε' => 'e',
        'η' => 'h',
        'ι' => 'i',
        'κ' => 'k',
        'μ' => 'm',
        'ν' => 'n',
        'ο' => 'o',
        'ρ' => 'p',
        'τ' => 't',
        'υ' => 'y',
        'χ' => 'x',
        'ζ' => 'z',
        // Latin letters and digits drawn like another.
        'ı' => 'i',
        'ɡ' => 'g',
        '0' => 'o',
        // 電腦, 機器人: the traditional (and Japanese) forms of the reserved words.
        '電' => '电',
        '腦' | '脳' => '脑',
        '機' => '机',
        // Middle dots and bullets: 电脑·东 however the dot was typed.
        '•' | '・' | '‧' | '∙' | '⋅' | 'ㆍ' | '●' | '◦' | '.' | '。' => '·',
        c => c,
    }
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

    /// Names a reader takes for a computer's, however they were typed (issue 24.10): each is
    /// refused, and the refusal names it as typed.
    #[test]
    fn names_that_look_like_a_computers_are_refused() {
        let refused = |typed: &str| {
            assert_eq!(
                display_name(typed),
                Err(NameFault::Reserved {
                    name: typed.trim().to_string()
                }),
                "{typed} → {}",
                look_alike(typed)
            );
        };
        // Traditional characters.
        refused("電腦");
        refused("電脑");
        refused("機器人");
        refused("電腦·南");
        // Another dot after 电脑: a bullet, the katakana dot, the halfwidth one, a full stop.
        refused("电脑•东");
        refused("电脑・西");
        refused("电脑･北");
        refused("电脑.A2");
        refused("電腦•東");
        // Case and width.
        refused("BOT");
        refused("bOt");
        refused("ｂｏｔ");
        refused("ＢＯＴ");
        // Cyrillic and Greek letters drawn like Latin ones, and a zero for the o.
        refused("Bоt"); // Cyrillic о
        refused("Вот"); // Cyrillic В, о, т
        refused("Βοτ"); // Greek Β, ο, τ
        refused("B0T");
        // Spaces, ASCII or ideographic, between the characters.
        refused("机 器 人");
        refused("机\u{3000}器\u{3000}人");
        refused("b o t");
        refused("电 脑 · 东");
    }

    /// The fold only compares: names that merely contain a reserved word, or share its letters,
    /// are a person's, and every name is stored as typed.
    #[test]
    fn ordinary_names_pass_and_keep_their_form() {
        for name in [
            "王芳",
            "老王",
            "Botham",
            "Robot Wang",
            "电脑迷",
            "机器",
            "Иван",
            "ｗａｎｇ",
            "李·明",
            "电 脑东",
        ] {
            assert_eq!(display_name(name).as_deref(), Ok(name), "{name}");
        }
        assert_eq!(look_alike("Ｂｏｔ"), "bot");
        assert_eq!(look_alike("電腦•東"), "电脑·東");
    }
}
