//! 语言 (languages): the desk speaks Chinese (the default, as the players do) or English.

use serde::Serialize;

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
            other => Err(format!("--lang: {other:?} is not zh or en")),
        }
    }

    /// The Chinese or the English of a pair.
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// One thing said in both languages (JSON output carries both).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Words {
    pub zh: String,
    pub en: String,
}

impl Words {
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Words {
        Words {
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// What an engine error says about itself.
    pub fn explain(e: &impl rules::Explain) -> Words {
        Words::new(e.zh(), e.en())
    }

    pub fn get(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }
}
