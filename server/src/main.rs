//! `paiju`: the table server and the referee's tools.
//!
//! - `paiju deal --game shengji|gouji --seed <64 hex> --board <n>`: one board as JSON.
//! - `paiju judge`: answers rule questions, one JSON object a line (see docs/referee.md).

mod referee;

use std::process::ExitCode;

fn usage() -> &'static str {
    "usage:\n  paiju deal --game shengji|gouji --seed <64 hex digits> --board <n>\n  paiju judge   (questions as JSON lines on standard input)"
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("deal") => referee::deal::run(&args[1..]),
        Some("judge") => referee::judge::run(std::io::stdin().lock(), std::io::stdout().lock()),
        _ => Err(usage().to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("paiju: {message}");
            ExitCode::from(2)
        }
    }
}
