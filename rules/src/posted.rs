//! A ruleset as a board's views carry it: posted once for the board, shared by every view.
//!
//! Every view holds the board's whole ruleset, so that a client shows which rules are in force
//! and a computer player reasons with them. A view is built for each seat after every action,
//! and the table writes each into JSON: copying the ruleset into each view and writing it out
//! field by field was an eighth of the instructions the server spent on an action
//! (docs/performance.md, "Seventh round"). [`Posted`] shares one copy, and writes it to JSON
//! once, the first time a view of the board is sent; after that the same text is copied into
//! each frame.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Error as _, Serialize, Serializer};
use serde_json::value::RawValue;

/// A shared, read-only ruleset, written to JSON once. Reads as the ruleset it holds (`Deref`);
/// serialises exactly as that ruleset does.
pub struct Posted<R>(Arc<Sheet<R>>);

struct Sheet<R> {
    rules: R,
    /// The ruleset's JSON text, made when first asked for.
    json: OnceLock<Box<RawValue>>,
}

impl<R> Posted<R> {
    pub fn new(rules: R) -> Posted<R> {
        Posted(Arc::new(Sheet {
            rules,
            json: OnceLock::new(),
        }))
    }
}

impl<R> From<R> for Posted<R> {
    fn from(rules: R) -> Posted<R> {
        Posted::new(rules)
    }
}

impl<R> Deref for Posted<R> {
    type Target = R;
    fn deref(&self) -> &R {
        &self.0.rules
    }
}

/// A copy shares the sheet (and its JSON text).
impl<R> Clone for Posted<R> {
    fn clone(&self) -> Posted<R> {
        Posted(Arc::clone(&self.0))
    }
}

impl<R: PartialEq> PartialEq for Posted<R> {
    fn eq(&self, other: &Posted<R>) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.rules == other.0.rules
    }
}

impl<R: Eq> Eq for Posted<R> {}

impl<R: fmt::Debug> fmt::Debug for Posted<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.rules.fmt(f)
    }
}

impl<R: Serialize> Serialize for Posted<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let sheet = &*self.0;
        // Only JSON (human-readable, the one text format views are written in) takes a raw
        // value's text as it is; any other format gets the ruleset itself, and no text is made.
        if !serializer.is_human_readable() {
            return sheet.rules.serialize(serializer);
        }
        let json = match sheet.json.get() {
            Some(json) => json,
            None => {
                let made =
                    serde_json::value::to_raw_value(&sheet.rules).map_err(S::Error::custom)?;
                sheet.json.get_or_init(|| made)
            }
        };
        json.serialize(serializer)
    }
}

impl<'de, R: Deserialize<'de>> Deserialize<'de> for Posted<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Posted<R>, D::Error> {
        R::deserialize(deserializer).map(Posted::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    struct Rules {
        name: String,
        points: Vec<u32>,
    }

    #[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    struct View {
        board: u32,
        ruleset: Posted<Rules>,
    }

    #[derive(serde::Serialize)]
    struct PlainView<'a> {
        board: u32,
        ruleset: &'a Rules,
    }

    #[test]
    fn a_posted_ruleset_is_written_as_the_ruleset_and_read_back_the_same() {
        let rules = Rules {
            name: "福建 \"2024\"\n".into(),
            points: vec![10, 20],
        };
        let plain = serde_json::to_string(&PlainView {
            board: 3,
            ruleset: &rules,
        })
        .unwrap();
        let view = View {
            board: 3,
            ruleset: Posted::new(rules),
        };
        // The first time (the text is made) and again (the text is reused): the same bytes.
        assert_eq!(serde_json::to_string(&view).unwrap(), plain);
        assert_eq!(serde_json::to_string(&view).unwrap(), plain);
        let pretty = serde_json::to_string_pretty(&view).unwrap();
        let back: View = serde_json::from_str(&pretty).unwrap();
        assert_eq!(back, view);
        assert_eq!(
            serde_json::to_value(&view).unwrap()["ruleset"]["points"][1],
            20
        );
    }

    #[test]
    fn copies_share_one_sheet() {
        let a = Posted::new(Rules {
            name: "x".into(),
            points: vec![],
        });
        let b = a.clone();
        assert!(std::ptr::eq(&*a, &*b));
        serde_json::to_string(&a).unwrap();
        assert!(
            b.0.json.get().is_some(),
            "the text made for one copy serves the other"
        );
    }
}
