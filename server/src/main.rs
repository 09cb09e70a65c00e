//! `paiju`: the table server and the referee's tools.
//!
//! - `paiju serve [--listen ADDR] [--db FILE] [--web DIR] ...`: the table server.
//! - `paiju load --tables N [--game shengji|gouji] [--think-ms MS]`: the load generator.
//! - `paiju verify [--db FILE] [--table ID]`: checks the hash chains of stored logs.
//! - `paiju deal --game shengji|gouji --seed <64 hex> --board <n>`: one board as JSON.
//! - `paiju judge`: answers rule questions, one JSON object a line (see docs/referee.md).

mod cli;
mod games;
use server::referee;

use std::process::ExitCode;

fn usage() -> &'static str {
    "usage:
  paiju serve [--listen 127.0.0.1:8080] [--db paiju.db] [--web DIR] [--referee-token T]
              [--clock-scale 1.0] [--bot-delay-ms 600] [--idle-minutes 30]
              [--max-tables N] [--max-connections N] [--allow-origin URL|*]
  paiju load --tables N [--game shengji|gouji] [--think-ms 200] [--deadline-s 600]
  paiju verify [--db paiju.db] [--table ID]
  paiju deal --game shengji|gouji --seed <64 hex digits> --board <n>
  paiju judge   (questions as JSON lines on standard input)"
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => cli::serve(&args[1..]),
        Some("load") => cli::load(&args[1..]),
        Some("verify") => cli::verify(&args[1..]),
        Some("deal") => referee::deal::run(&args[1..]),
        Some("judge") => referee::judge::run(std::io::stdin().lock(), std::io::stdout().lock()),
        Some("replay") => referee::replay::run(&args[1..]),
        Some("explain") => referee::explain::run(&args[1..]),
        Some("export") => referee::board_file::run_export(&args[1..]),
        Some("import") => referee::board_file::run_import(&args[1..]),
        Some("record-card") => referee::record_card::run(&args[1..]),
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
