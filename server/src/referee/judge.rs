//! `paiju judge`'s answers: the question forms are those of docs/rules-shengji.md and
//! docs/rules-gouji.md, and the answers come from the engines themselves (`rules::…::judge`).
//! Each line goes to the judge of the game it names (`"game"`), which the `paiju judge`
//! command finds in the registry.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// One game's judge: the question read as its form `Q`, answered by `judge`.
pub fn answer_with<Q: DeserializeOwned, A: Serialize>(
    question: Value,
    judge: impl Fn(&Q) -> A,
) -> Value {
    match serde_json::from_value(question) {
        Ok(q) => serde_json::to_value(judge(&q))
            .unwrap_or_else(|e| json!({ "error": format!("cannot write the answer: {e}") })),
        Err(e) => json!({ "error": format!("not a question this judge knows: {e}") }),
    }
}
