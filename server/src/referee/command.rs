//! The referee's commands, from their arguments (parsed in `cli.rs`) to what they print: each
//! finds its tables — in a database, or in a board file — checks and replays them, and writes
//! the report to standard output. A failure is the error that `main` prints, with exit status 2.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::board_file;
use super::explain::{self, Try};
use super::lang::Lang;
use super::record_card::{self, CardOptions};
use super::replay;
use super::replayed::{self, Checked};

/// Where `replay` and `explain` read a table.
#[derive(Clone, Debug)]
pub enum TableAt {
    /// A database, by the table's id.
    Stored { db: PathBuf, id: String },
    /// A board file (docs/referee.md): its one board, or the one with `[Table "id"]`.
    File { path: PathBuf, id: Option<String> },
}

/// The table, checked (its chain, every action through the engine) and replayed; `head`: the
/// `head_hash` published with the result, which the log's last hash must be.
fn checked(at: &TableAt, head: Option<&str>) -> Result<Checked, String> {
    match at {
        TableAt::Stored { db, id } => Ok(replayed::check(replayed::load(db, id)?, head)),
        TableAt::File { path, id } => board_file::checked_from_file(path, id.as_deref()),
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
pub fn replay(at: &TableAt, head: Option<&str>, opts: &replay::Options) -> Result<(), String> {
    let checked = checked(at, head)?;
    print(&replay::report(&checked, opts)?)?;
    match &checked.fault {
        Some(f) => Err(format!(
            "table {}: {}",
            checked.table.header.id,
            opts.lang.of(&f.words)
        )),
        None => Ok(()),
    }
}

/// `paiju explain`: why entry `seq` was legal, or why `try_action` would be refused there.
pub fn explain(
    at: &TableAt,
    seq: u64,
    head: Option<&str>,
    try_action: Option<&Try>,
    lang: Lang,
    json: bool,
) -> Result<(), String> {
    let checked = checked(at, head)?;
    let e = explain::ask(&checked, seq, try_action)
        .map_err(|e| format!("table {}: {}", checked.table.header.id, lang.of(&e)))?;
    let text = if json {
        serde_json::to_string_pretty(&e).map_err(|e| e.to_string())?
    } else {
        explain::text(&e, lang)
    };
    print(&text)
}

/// `paiju export`: the tables in the board format, one board after another. A record that does
/// not hold is not exported.
pub fn export(db: &Path, ids: &[String], event: Option<&str>) -> Result<(), String> {
    let mut text = format!("{} — docs/referee.md\n", board_file::MAGIC);
    for id in ids {
        let checked = replayed::check(replayed::load(db, id)?, None);
        text.push('\n');
        text.push_str(&board_file::export(&checked, event)?);
    }
    print(&text)
}

/// `paiju import`: every board of the file checked, and stored unless `check`.
pub fn import(
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
    for b in &boards {
        let imported = board_file::import_board(b, rename).map_err(|e| format!("{file}: {e}"))?;
        let t = &imported.checked.table;
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
        let mut line = board_file::imported_line(&imported, stored, lang);
        for f in &imported.findings {
            line.push_str(&format!("\n  {f}"));
        }
        print(&line)?;
    }
    Ok(())
}

/// `paiju record-card`: one card a table, all on one page of HTML.
pub fn record_card(db: &Path, ids: &[String], opts: &CardOptions) -> Result<(), String> {
    let mut checked = Vec::new();
    for id in ids {
        let c = replayed::check(replayed::load(db, id)?, None);
        if let Some(f) = &c.fault {
            return Err(format!("table {id}: {}", opts.lang.of(&f.words)));
        }
        checked.push(c);
    }
    print(&record_card::page(&checked, opts)?)
}

/// `paiju deal`: one board re-dealt from its seed, as JSON.
pub fn deal(game: &str, seed: &str, board: u32) -> Result<(), String> {
    let seed = rules::deal::Seed::from_hex(seed).map_err(|e| rules::Explain::en(&e))?;
    print(&super::deal::json(game, &seed, board)?.to_string())
}
