//! The referee's commands, from their arguments (parsed in `cli.rs`) to what they print: each
//! finds its tables — in a database, or in a board file — and the desk of each table's game in
//! the registry ([`Desks`]), asks it, and writes the report to standard output. A failure is the
//! error that `main` prints, with exit status 2.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::board_file;
use super::desk::{desk_of, Desk, Desks, Source};
use super::explain::{self, Try};
use super::lang::Lang;
use super::record_card::{self, CardOptions};
use super::replay;
use super::replayed;

/// Where `replay` and `explain` read a table.
#[derive(Clone, Debug)]
pub enum TableAt {
    /// A database, by the table's id.
    Stored { db: PathBuf, id: String },
    /// A board file (docs/referee.md): its one board, or the one with `[Table "id"]`.
    File { path: PathBuf, id: Option<String> },
}

/// Runs `ask` with the table at `at` and the desk of its game; `head`: the `head_hash`
/// published with the result, which the log's last hash must be.
fn with_table<T>(
    desks: &dyn Desks,
    at: &TableAt,
    head: Option<&str>,
    ask: impl FnOnce(&dyn Desk, Source<'_>) -> Result<T, String>,
) -> Result<T, String> {
    match at {
        TableAt::Stored { db, id } => {
            let table = replayed::load(db, id)?;
            let desk = desk_of(desks, &table.header.game).map_err(|w| w.en)?;
            ask(desk, Source::Stored(Box::new(table), head))
        }
        TableAt::File { path, id } => {
            let board = board_file::board_of_file(path, id.as_deref())?;
            let desk = desk_of(desks, board.game()?).map_err(|w| w.en)?;
            ask(desk, Source::Board(&board)).map_err(|e| format!("{}: {e}", path.display()))
        }
    }
}

/// The id a command names a table by in its errors.
fn id_of(at: &TableAt) -> &str {
    match at {
        TableAt::Stored { id, .. } => id,
        TableAt::File { id, path } => id.as_deref().unwrap_or(path.to_str().unwrap_or("")),
    }
}

fn print(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

/// `paiju replay`: what it could replay is printed even when the record does not hold; then
/// the fault is the error.
pub fn replay(
    desks: &dyn Desks,
    at: &TableAt,
    head: Option<&str>,
    opts: &replay::Options,
) -> Result<(), String> {
    let report = with_table(desks, at, head, |desk, source| desk.replay(source, opts))?;
    print(&report.text)?;
    match &report.fault {
        Some(f) => Err(format!("table {}: {}", id_of(at), opts.lang.of(&f.words))),
        None => Ok(()),
    }
}

/// What `paiju explain` is asked: before entry `seq`, the logged action or a `--try`, and
/// whether to value the decision with every hand known (`--all-seeing`).
pub struct Asked {
    pub seq: u64,
    pub try_action: Option<Try>,
    pub all_seeing: bool,
}

/// `paiju explain`: why entry `seq` was legal, or why `try_action` would be refused there.
pub fn explain(
    desks: &dyn Desks,
    at: &TableAt,
    head: Option<&str>,
    asked: &Asked,
    lang: Lang,
    json: bool,
) -> Result<(), String> {
    let e = with_table(desks, at, head, |desk, source| {
        desk.explain(
            source,
            asked.seq,
            asked.try_action.as_ref(),
            asked.all_seeing,
        )
        .map_err(|w| format!("table {}: {}", id_of(at), lang.of(&w)))
    })?;
    let text = if json {
        serde_json::to_string_pretty(&e).map_err(|e| e.to_string())?
    } else {
        explain::text(&e, lang)
    };
    print(&text)
}

/// `paiju export`: the tables in the board format, one board after another. A record that does
/// not hold is not exported.
pub fn export(
    desks: &dyn Desks,
    db: &Path,
    ids: &[String],
    event: Option<&str>,
) -> Result<(), String> {
    let mut text = format!("{} — docs/referee.md\n", board_file::MAGIC);
    for id in ids {
        let table = replayed::load(db, id)?;
        let desk = desk_of(desks, &table.header.game).map_err(|w| w.en)?;
        text.push('\n');
        text.push_str(&desk.export(table, event)?);
    }
    print(&text)
}

/// `paiju import`: every board of the file checked, and stored unless `check`.
pub fn import(
    desks: &dyn Desks,
    file: &str,
    db: &Path,
    check: bool,
    rename: Option<&str>,
    lang: Lang,
) -> Result<(), String> {
    let text = if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|e| e.to_string())?;
        s
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?
    };
    let boards = board_file::parse(&text).map_err(|e| format!("{file}: {e}"))?;
    if boards.is_empty() {
        return Err(format!("{file}: no board in it"));
    }
    if rename.is_some() && boards.len() > 1 {
        return Err("--as renames one board; the file holds several".into());
    }
    // Every id a board would be stored under, before any is stored: an id the server would
    // not make (empty, a path, a page of text) changes nothing.
    for b in &boards {
        if let Some(id) = rename.or(b.table()) {
            crate::seat_token::check_table_code(id).map_err(|e| match rename {
                Some(_) => format!("--as: {e}"),
                None => format!("{file}: [Table]: {e}"),
            })?;
        }
    }
    for b in &boards {
        let imported = b
            .game()
            .and_then(|game| desk_of(desks, game).map_err(|w| w.en))
            .and_then(|desk| desk.import(b, rename))
            .map_err(|e| format!("{file}: {e}"))?;
        let t = &imported.table;
        let stored = if check {
            lang.pick("已核对（未存入）", "checked (not stored)")
        } else if !imported.storable {
            return Err(format!(
                "{file}: table {}: no seed, so no table record can be made (use --check)",
                t.header.id
            ));
        } else {
            match board_file::store_table(db, t)? {
                "stored" => lang.pick("已存入", "stored"),
                _ => lang.pick("已存在，完全相同", "already stored, identical"),
            }
        };
        let mut line = format!(
            "{}{}{stored}",
            lang.of(&imported.what),
            lang.pick("；", "; ")
        );
        for f in &imported.findings {
            line.push_str(&format!("\n  {f}"));
        }
        print(&line)?;
    }
    Ok(())
}

/// `paiju record-card`: one card a table, all on one page of HTML.
pub fn record_card(
    desks: &dyn Desks,
    db: &Path,
    ids: &[String],
    opts: &CardOptions,
) -> Result<(), String> {
    let mut cards = Vec::new();
    for id in ids {
        let table = replayed::load(db, id)?;
        let desk = desk_of(desks, &table.header.game).map_err(|w| w.en)?;
        cards.push(desk.record_card(table, opts)?);
    }
    print(&record_card::page_of(&cards, opts))
}

/// `paiju deal`: one board of `game` re-dealt from its seed, as JSON.
pub fn deal(desks: &dyn Desks, game: &str, seed: &str, board: u32) -> Result<(), String> {
    let desk = desk_of(desks, game).map_err(|w| w.en)?;
    let seed = rules::deal::Seed::from_hex(seed).map_err(|e| rules::Explain::en(&e))?;
    print(&desk.deal(&seed, board).to_string())
}

/// `paiju judge`: one JSON question a line in, one JSON answer a line out. A line that cannot be
/// understood gets `{"error": "..."}` and the rest go on.
pub fn judge(desks: &dyn Desks, input: impl BufRead, mut output: impl Write) -> Result<(), String> {
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(output, "{}", answer(desks, &line)).map_err(|e| e.to_string())?;
        output.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The answer to one question line, from the judge of the game it names.
pub fn answer(desks: &dyn Desks, line: &str) -> Value {
    let question: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return json!({ "error": format!("not JSON: {e}") }),
    };
    let games = desks.desk_games().join(" or ");
    match question.get("game").and_then(Value::as_str) {
        Some(game) => match desks.desk(game) {
            Some(desk) => desk.judge(question),
            None => json!({ "error": format!("unknown game {game:?} ({games})") }),
        },
        None => json!({ "error": format!("a question needs \"game\": {games}") }),
    }
}
