//! 语言 (languages): the desk speaks Chinese (the default, as the players do) or English.

/// The language of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    /// `zh` or `en` (as `--lang` takes it).
    pub fn parse(s: &str) -> Result<Lang, String> {
        match s.to_ascii_lowercase().as_str() {
            "zh" | "cn" | "zh-cn" => Ok(Lang::Zh),
            "en" => Ok(Lang::En),
            other => Err(format!("{other:?} is not zh or en")),
        }
    }

    /// The Chinese or the English of some words.
    pub fn of(self, w: &Words) -> &str {
        self.pick(&w.zh, &w.en)
    }

    /// The Chinese or the English of a pair.
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// One thing said in both languages: the protocol's, which refusals use too.
pub use protocol::Words;

/// Both languages of one formatted sentence.
pub fn both(f: impl Fn(Lang) -> String) -> Words {
    Words::new(f(Lang::Zh), f(Lang::En))
}
