//! What every refusal looks like on the wire, the server's ([`crate::Refusal`]) and the
//! engines' (`rules::Explain`) alike: a [`Problem`]. The lobby, the socket and the events all
//! answer with it, so it belongs to none of them.

use serde::{Deserialize, Serialize};

// Only for the doc links to its variants: the socket carries problems, a problem does not need
// the socket (the module-graph test does not count doc-only imports).
#[cfg(doc)]
use crate::socket::ClientOut;

/// Any refusal, over HTTP (with a 4xx/5xx status) or the socket (inside [`ClientOut::Error`] and
/// [`ClientOut::Rejected`]): a stable code and the reason in Chinese and English.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Problem {
    pub code: String,
    pub zh: String,
    pub en: String,
}

impl Problem {
    pub fn new(code: &str, zh: impl Into<String>, en: impl Into<String>) -> Problem {
        Problem {
            code: code.to_string(),
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// A rule engine's refusal, as `rules::Explain` words it.
    pub fn explain(e: &impl rules::Explain) -> Problem {
        Problem {
            code: e.code().to_string(),
            zh: e.zh(),
            en: e.en(),
        }
    }
}
