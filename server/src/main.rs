//! `paiju`: the table server and the referee's tools. `paiju --help` lists the subcommands,
//! `paiju serve --help` (and so on) their flags; the command line itself is in `cli.rs`.
//!
//! - `paiju serve [--listen ADDR] [--db FILE] [--web DIR] ...`: the table server.
//! - `paiju load --tables N [--game shengji|gouji] [--think-ms MS]`: the load generator.
//! - `paiju verify [--db FILE] [--table ID]`: checks the hash chains of stored logs.
//! - `paiju deal --game shengji|gouji --seed <64 hex> --board <n>`: one board as JSON.
//! - `paiju judge`: answers rule questions, one JSON object a line (see docs/referee.md).

mod cli;
mod referee;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // A bad flag ends here: clap prints what is wrong and exits with 2.
    let cli::Cli { command } = cli::Cli::parse();
    let result = match command {
        cli::Command::Serve(args) => cli::serve(*args),
        cli::Command::Load(args) => cli::load(args),
        cli::Command::Verify(args) => cli::verify(args),
        cli::Command::Deal { args } => referee::deal::run(&args),
        cli::Command::Event(cmd) => cli::event(cmd),
        cli::Command::Judge => {
            referee::judge::run(std::io::stdin().lock(), std::io::stdout().lock())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("paiju: {message}");
            ExitCode::from(2)
        }
    }
}
