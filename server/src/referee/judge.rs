//! `paiju judge`: one JSON question a line in, one JSON answer a line out. A line that cannot be
//! understood gets `{"error": "..."}` and the rest go on.

use std::io::{BufRead, Write};

use serde_json::{json, Value};

pub fn run(input: impl BufRead, mut output: impl Write) -> Result<(), String> {
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = answer(&line);
        writeln!(output, "{answer}").map_err(|e| e.to_string())?;
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
    match question.get("game").and_then(Value::as_str) {
        Some(game) => json!({ "error": format!("questions about {game:?} are not built yet") }),
        None => json!({ "error": "a question needs \"game\": \"shengji\" or \"gouji\"" }),
    }
}
