//! `paiju judge`: one JSON question a line in, one JSON answer a line out. A line that cannot be
//! understood gets `{"error": "..."}` and the rest go on. The question forms are those of
//! docs/rules-shengji.md and docs/rules-gouji.md; the answers come from the engines themselves.

use std::io::{BufRead, Write};

use serde_json::{json, Value};

pub fn run(input: impl BufRead, mut output: impl Write) -> Result<(), String> {
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(output, "{}", answer(&line)).map_err(|e| e.to_string())?;
        output.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The answer to one question line.
pub fn answer(line: &str) -> Value {
    let question: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return json!({ "error": format!("not JSON: {e}") }),
    };
    let answer = match question.get("game").and_then(Value::as_str) {
        Some("shengji") => serde_json::from_value(question)
            .map(|q| serde_json::to_value(rules::shengji::judge::answer(&q))),
        Some("gouji") => serde_json::from_value(question)
            .map(|q| serde_json::to_value(rules::gouji::judge::answer(&q))),
        Some(other) => {
            return json!({ "error": format!("unknown game {other:?} (shengji or gouji)") })
        }
        None => return json!({ "error": "a question needs \"game\": \"shengji\" or \"gouji\"" }),
    };
    match answer {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => json!({ "error": format!("cannot write the answer: {e}") }),
        Err(e) => json!({ "error": format!("not a question this judge knows: {e}") }),
    }
}
