//! `paiju`: the table server and the referee's tools. `paiju --help` lists the subcommands,
//! `paiju serve --help` (and so on) their flags; the command line itself is in `cli.rs`.
//!
//! - `paiju serve [--listen ADDR] [--db FILE] [--web DIR] ...`: the table server.
//! - `paiju load --tables N [--game shengji|gouji] [--think-ms MS]`: the load generator.
//! - `paiju bot --url ws://HOST:PORT --table ID --seat N --level LEVEL`: one seat played over
//!   WebSocket at a level (入门, 普通, 高手), like a browser.
//! - `paiju arena --game shengji|gouji --a LEVEL --b LEVEL --deals N --seed HEX`: a duplicate
//!   match between two levels (docs/bots.md).
//! - `paiju verify [--db FILE|URL] [--table ID]`: checks the hash chains of stored logs.
//! - `paiju migrate --from FILE --to URL`: copies a SQLite store into PostgreSQL.
//! - `paiju deal --game shengji|gouji --seed <64 hex> --board <n>`: one board as JSON.
//! - `paiju judge`: answers rule questions, one JSON object a line (see docs/referee.md).
//! - `paiju replay | explain | export | import | record-card`: the referee's desk
//!   (docs/referee.md).
//! - `paiju event movement | score`: the pure event logic (docs/tournaments.md).

// Its doc comments are the command line's `--help` (clap): `<table id>` there names an
// argument, not an HTML tag, `[Table]` a board file's tag, not a link, and a URL is printed
// as written.
#[allow(
    rustdoc::invalid_html_tags,
    rustdoc::bare_urls,
    rustdoc::broken_intra_doc_links
)]
mod cli;
use server::referee;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // A bad flag ends here: clap prints what is wrong and exits with 2.
    let cli::Cli { command } = cli::Cli::parse();
    let result = match command {
        cli::Command::Serve(args) => cli::serve(*args),
        cli::Command::Load(args) => cli::load(args),
        cli::Command::Bot(args) => cli::bot(args),
        cli::Command::Arena(args) => cli::arena(args),
        cli::Command::Fairplay(args) => cli::fairplay(args),
        cli::Command::Verify(args) => cli::verify(args),
        cli::Command::Migrate(args) => cli::migrate(args),
        cli::Command::Deal(a) => cli::deal(a),
        cli::Command::Replay(a) => cli::replay(a),
        cli::Command::Explain(a) => cli::explain(a),
        cli::Command::Export(a) => cli::export(a),
        cli::Command::Import(a) => cli::import(a),
        cli::Command::RecordCard(a) => cli::record_card(a),
        cli::Command::Event(cmd) => cli::event(cmd),
        cli::Command::Judge => {
            let games = server::Games::standard();
            referee::command::judge(&games, std::io::stdin().lock(), std::io::stdout().lock())
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

/// mimalloc instead of glibc's malloc: the hot path allocates and frees frames of one to two
/// KiB from several threads, which glibc serves from its shared bins (about a tenth of the
/// server's CPU went to `malloc`, `free` and their consolidation). Measured with `paiju load
/// --tables 1000 --think-ms 200`, three runs each: server CPU 141–149 µs an action against
/// 157–176, memory per table 55–61 KiB against 59–60 (docs/performance.md, "Fourth round").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
