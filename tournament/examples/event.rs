//! A stand-in for `paiju event …` until the server's CLI wires the crate in: the same two
//! commands, the same output. The examples in docs/tournaments.md were produced with it.
//!
//! ```text
//! cargo run -p tournament --example event -- movement --tables 3 --rounds 3 --boards-per-round 2
//! cargo run -p tournament --example event -- movement --tables 4 --rounds 4 --boards-per-round 1 --relay --card 4
//! cargo run -p tournament --example event -- score < results.json
//! ```
//!
//! Errors go to stderr as `{"code":…,"zh":…,"en":…}`, with exit status 2.

use std::io::Read;
use std::process::ExitCode;

use tournament::{movement, movement_card, score, Error, ScoreInput, Variant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let wire = |e: Error| serde_json::to_string(&e.wire()).expect("serialisable");
    match args.first().map(String::as_str) {
        Some("movement") => {
            let number = |flag: &str| -> Result<Option<u32>, String> {
                match args.iter().position(|a| a == flag) {
                    None => Ok(None),
                    Some(i) => args
                        .get(i + 1)
                        .and_then(|v| v.parse().ok())
                        .map(Some)
                        .ok_or_else(|| format!("{flag} needs a whole number")),
                }
            };
            let need = |flag: &str| number(flag)?.ok_or_else(|| format!("{flag} is required"));
            let variant = match (args.iter().any(|a| a == "--skip"), args.iter().any(|a| a == "--relay")) {
                (true, true) => return Err("--skip or --relay, not both".to_string()),
                (true, false) => Variant::Skip,
                (false, true) => Variant::Relay,
                (false, false) => Variant::Plain,
            };
            let m = movement(need("--tables")?, need("--rounds")?, need("--boards-per-round")?, variant)
                .map_err(wire)?;
            match number("--card")? {
                Some(table) => movement_card(&m, table).map_err(wire),
                None => Ok(serde_json::to_string(&m).expect("serialisable")),
            }
        }
        Some("score") => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map_err(|e| e.to_string())?;
            let input: ScoreInput = serde_json::from_str(&text).map_err(|e| {
                serde_json::json!({"code": "bad_json", "zh": format!("输入不是有效的成绩 JSON：{e}"),
                                   "en": format!("the input is not valid score JSON: {e}")})
                .to_string()
            })?;
            let out = score(input).map_err(wire)?;
            Ok(serde_json::to_string_pretty(&out).expect("serialisable"))
        }
        _ => Err("usage: event movement --tables N --rounds R --boards-per-round K [--relay | --skip] [--card T]\n       event score < input.json".to_string()),
    }
}
