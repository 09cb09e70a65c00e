//! 牌谱 (the board format): one board of 80分 or one game of 够级 as plain text, as PBN is for
//! bridge — tag pairs `[Name "value"]`, some followed by lines of data. Specified in
//! docs/referee.md.
//!
//! `paiju export <table id>… [--db FILE] [--event NAME]` writes stored tables in it;
//! `paiju import FILE [--db FILE] [--check] [--as ID]` reads it back: the deal is checked
//! against a re-deal from the seed (or, with no seed, played from the hands given), every
//! action is re-applied through the engine, the result must be the one written, and the log's
//! hash chain is rebuilt — the same chain, ending at the `Head` written, when every field came
//! through. Then the table is stored (unless `--check`).
//!
//! Export then import gives the same header, seats (names and bots), log and result.

use std::collections::BTreeMap;

use protocol::TableState;
use rules::cards::{Card, Rank, Suit};
use rules::deal::Seed;
use rules::{Actor, Engine};
use serde_json::{Map, Value};

use super::lang::{Lang, Words};
use super::replay::ReplayGame;
use super::replayed::{self, Checked, Run};
use super::words::{self, GameWords};
use crate::store::{self, LogEntry, SeatRecord, Store, StoredTable, TableHeader};
use crate::table::replay::dealt;

/// The first line of every file written.
pub const MAGIC: &str = "% paiju board file 1";

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/// A tag value quoted (JSON string escapes, which include PBN's `\"` and `\\`).
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn tag(out: &mut Vec<String>, name: &str, value: &str) {
    out.push(format!("[{name} {}]", quote(value)));
}

/// The action in the board format's notation (`play SA SK`, `penalty points=40`), or its JSON
/// text as stored when the notation would not give back exactly that text.
pub fn notation(action_json: &str) -> String {
    let short = || -> Option<String> {
        let v: Value = serde_json::from_str(action_json).ok()?;
        let obj = v.as_object()?;
        let mut it = obj.iter();
        let (k, t) = it.next()?;
        if k != "type" {
            return None;
        }
        let mut tokens = vec![t.as_str()?.to_string()];
        for (k, val) in it {
            match val {
                Value::Array(cards) if k == "cards" && !cards.is_empty() => {
                    for c in cards {
                        tokens.push(c.as_str()?.to_string());
                    }
                }
                Value::String(s) if !s.contains([' ', '=', '|', '{']) && !s.is_empty() => {
                    tokens.push(format!("{k}={s}"))
                }
                Value::Number(n) => tokens.push(format!("{k}={n}")),
                _ => return None,
            }
        }
        let text = tokens.join(" ");
        (from_notation(&text).ok()? == action_json).then_some(text)
    };
    short().unwrap_or_else(|| action_json.to_string())
}

/// The action JSON text of a notation (or of JSON given as is).
pub fn from_notation(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.starts_with('{') {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("bad action JSON: {e}"))?;
        if !v.is_object() {
            return Err("an action is a JSON object".into());
        }
        // Kept exactly as written: it is what the chain hashed.
        return Ok(text.to_string());
    }
    let mut tokens = text.split_whitespace();
    let kind = tokens.next().ok_or("an empty action")?;
    let mut obj = Map::new();
    obj.insert("type".into(), Value::String(kind.to_string()));
    let mut cards: Option<Vec<Value>> = None;
    for t in tokens {
        match t.split_once('=') {
            Some((k, v)) => {
                let value = match v.parse::<u64>() {
                    Ok(n) => Value::from(n),
                    Err(_) => match v.parse::<i64>() {
                        Ok(n) => Value::from(n),
                        Err(_) => Value::String(v.to_string()),
                    },
                };
                obj.insert(k.to_string(), value);
            }
            None => {
                let card: Card = t
                    .parse()
                    .map_err(|e: rules::cards::CardError| e.to_string())?;
                if cards.is_none() {
                    obj.insert("cards".into(), Value::Null);
                }
                cards
                    .get_or_insert_with(Vec::new)
                    .push(Value::String(card.to_string()));
            }
        }
    }
    if let Some(c) = cards {
        obj.insert("cards".into(), Value::Array(c));
    }
    serde_json::to_string(&Value::Object(obj)).map_err(|e| e.to_string())
}

/// What the board format writes of a game beyond what every game shares: the tags its deal
/// decides, its result, and its deal as written by hand.
pub trait BoardFileGame: ReplayGame {
    /// The tags a deal decides, written after `State` and checked against a re-deal: 80分's
    /// `Declarer`, `Level`, `Trump`.
    fn deal_tags(dealt: &Self) -> Vec<(&'static str, String)>;
    /// The result as the `Result` tag writes it; `*` while not over.
    fn result_tag(end: &Self) -> String;
    /// More of the result, written after `Result` and checked on import: 够级's `Places`.
    fn more_result_tags(end: &Self) -> Vec<(&'static str, String)> {
        let _ = end;
        Vec::new()
    }
    /// The game of a board without a seed: its deal as written (`hand` gives the hand of a
    /// `Deal` line by its label) under `rules`.
    fn as_written(
        b: &BoardText,
        rules: Self::Rules,
        hand: &dyn Fn(&str) -> Result<Vec<Card>, String>,
    ) -> Result<Self, String>;
}

/// 80分: the declarer, level and trump are the deal's; the result is the defenders' points.
impl BoardFileGame for rules::shengji::Board {
    fn deal_tags(dealt: &Self) -> Vec<(&'static str, String)> {
        let o = dealt.order();
        vec![
            ("Declarer", dealt.declarer().letter().to_string()),
            ("Level", o.level().symbol().to_string()),
            (
                "Trump",
                o.trump_suit()
                    .map(|s| s.letter().to_string())
                    .unwrap_or_else(|| "NT".into()),
            ),
        ]
    }

    /// The defenders' points (`85`, `85 final` once the referee finalised it).
    fn result_tag(end: &Self) -> String {
        match end.result() {
            Some(p) if end.is_final() => format!("{p} final"),
            Some(p) => p.to_string(),
            None => "*".into(),
        }
    }

    fn as_written(
        b: &BoardText,
        rules: Self::Rules,
        hand: &dyn Fn(&str) -> Result<Vec<Card>, String>,
    ) -> Result<Self, String> {
        let declarer = rules::shengji::Seat::parse(b.need("Declarer")?)
            .ok_or_else(|| mismatch(b, "[Declarer] is N, E, S or W"))?;
        let level =
            Rank::parse(b.need("Level")?).ok_or_else(|| mismatch(b, "[Level] is a rank 2 … A"))?;
        let trump = match b.need("Trump")? {
            t if t.eq_ignore_ascii_case("NT") => None,
            t => Some(
                t.chars()
                    .next()
                    .and_then(Suit::from_letter)
                    .ok_or_else(|| mismatch(b, "[Trump] is S, H, D, C or NT"))?,
            ),
        };
        let deal = rules::deal::ShengjiDeal {
            board: b.board()?,
            declarer: declarer.index(),
            level,
            trump,
            hands: [hand("N")?, hand("E")?, hand("S")?, hand("W")?],
            kitty: hand("K")?,
            order_hash: String::new(),
        };
        Ok(rules::shengji::Board::new(&deal, rules))
    }
}

/// 够级: the result is the team points (`A +6 B -6`), with the places.
impl BoardFileGame for rules::gouji::Game {
    fn deal_tags(_dealt: &Self) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    fn result_tag(end: &Self) -> String {
        match end.score() {
            Some((s, _)) => format!("A {:+} B {:+}", s.a, s.b),
            None => "*".into(),
        }
    }

    /// `Places`: `A1 1 B1 3 …` (1 头科 … 6 大落, `-` none).
    fn more_result_tags(end: &Self) -> Vec<(&'static str, String)> {
        let places = rules::gouji::Seat::ALL
            .iter()
            .map(|s| {
                let p = end
                    .place(*s)
                    .map(|p| (p.index() + 1).to_string())
                    .unwrap_or_else(|| "-".into());
                format!("{} {p}", s.name())
            })
            .collect::<Vec<_>>()
            .join(" ");
        vec![("Places", places)]
    }

    fn as_written(
        b: &BoardText,
        rules: Self::Rules,
        hand: &dyn Fn(&str) -> Result<Vec<Card>, String>,
    ) -> Result<Self, String> {
        let deal = rules::deal::GoujiDeal {
            game: b.board()?,
            hands: [
                hand("A1")?,
                hand("B1")?,
                hand("A2")?,
                hand("B2")?,
                hand("A3")?,
                hand("B3")?,
            ],
            order_hash: String::new(),
        };
        Ok(rules::gouji::Game::new(&deal, rules))
    }
}

fn state_name(s: TableState) -> &'static str {
    match s {
        TableState::Waiting => "waiting",
        TableState::Playing => "playing",
        TableState::Over => "over",
        TableState::Closed => "closed",
    }
}

fn parse_state(s: &str) -> Option<TableState> {
    Some(match s {
        "waiting" => TableState::Waiting,
        "playing" => TableState::Playing,
        "over" => TableState::Over,
        "closed" => TableState::Closed,
        _ => return None,
    })
}

/// One checked table in the board format. Refuses a record that does not check.
pub fn export<G: BoardFileGame>(
    checked: &Checked<G>,
    event: Option<&str>,
) -> Result<String, String> {
    if let Some(f) = &checked.fault {
        return Err(format!(
            "table {}: not exported: {}",
            checked.table.header.id, f.words.en
        ));
    }
    let run = checked.replayed.as_ref().ok_or("nothing replayed")?;
    let t = &checked.table;
    let h = &t.header;
    let mut out = Vec::new();
    tag(&mut out, "Event", event.unwrap_or(""));
    tag(&mut out, "Site", "paiju");
    tag(
        &mut out,
        "Date",
        &words::date(h.created_ms).replace('-', "."),
    );
    tag(&mut out, "Table", &h.id);
    tag(&mut out, "Game", &h.game);
    tag(&mut out, "Ruleset", &h.ruleset);
    tag(&mut out, "Options", &h.options);
    tag(&mut out, "Board", &h.board.to_string());
    tag(&mut out, "Algorithm", &h.deal_algorithm);
    tag(&mut out, "Seed", &h.seed);
    tag(&mut out, "Commitment", &h.seed_commitment);
    tag(&mut out, "Fixed", &h.fixed);
    tag(&mut out, "Created", &words::iso_time(h.created_ms));
    tag(&mut out, "State", state_name(t.state));
    for (name, value) in G::deal_tags(&run.dealt) {
        tag(&mut out, name, &value);
    }
    let n = G::SEATS;
    tag(&mut out, "Seats", &n.to_string());
    for i in 0..n {
        let rec = t.seats.iter().find(|s| s.seat == i);
        let label = G::seat_label(i);
        out.push(match rec {
            Some(SeatRecord {
                name: Some(name),
                bot,
                ..
            }) => format!("{label} {}{}", if *bot { "bot " } else { "" }, quote(name)),
            Some(SeatRecord { bot: true, .. }) => format!("{label} bot"),
            _ => format!("{label} -"),
        });
    }
    let hands = G::deal_hands(h, &run.dealt)?;
    tag(
        &mut out,
        "Deal",
        hands.first().map_or("", |(label, _)| label),
    );
    for (label, cards) in &hands {
        out.push(format!("{label} {}", G::hand_text(&run.dealt, cards)));
    }
    tag(&mut out, "Play", &t.log.len().to_string());
    for e in &t.log {
        let mut line = format!(
            "{} {} {} {} | {}",
            e.seq,
            words::label::<G>(e.seat),
            e.actor.name(),
            notation(&e.action),
            words::iso_time(e.time_ms)
        );
        if let Some(id) = e.client_id {
            line.push_str(&format!(" id={id}"));
        }
        if let Some(o) = &e.occupant {
            line.push_str(&format!(" by={o}"));
        }
        if let Some(r) = &e.reason {
            line.push_str(&format!(" reason={}", quote(r)));
        }
        out.push(line);
    }
    tag(&mut out, "Result", &G::result_tag(&run.end));
    for (name, value) in G::more_result_tags(&run.end) {
        tag(&mut out, name, &value);
    }
    tag(
        &mut out,
        "Head",
        &t.log
            .last()
            .map(|e| e.hash.clone())
            .unwrap_or_else(|| store::genesis(h)),
    );
    Ok(out.join("\n") + "\n")
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/// One board of a file: its tags and the data lines after each tag, with line numbers.
#[derive(Clone, Debug, Default)]
pub struct BoardText {
    /// The line its first tag is on.
    pub line: usize,
    pub tags: BTreeMap<String, String>,
    /// Data lines by the tag they follow.
    pub sections: BTreeMap<String, Vec<(usize, String)>>,
}

impl BoardText {
    fn get(&self, name: &str) -> Option<&str> {
        self.tags.get(name).map(String::as_str)
    }

    fn need(&self, name: &str) -> Result<&str, String> {
        self.get(name)
            .ok_or_else(|| format!("board at line {}: no [{name} …] tag", self.line))
    }

    /// The `Board` tag's number.
    fn board(&self) -> Result<u32, String> {
        self.need("Board")?
            .parse()
            .map_err(|_| mismatch(self, "[Board] is not a number"))
    }

    /// The `Table` tag: the table's id.
    pub fn table(&self) -> Option<&str> {
        self.get("Table")
    }

    /// The `Game` tag: the game's wire name.
    pub fn game(&self) -> Result<&str, String> {
        self.need("Game")
    }

    fn lines(&self, name: &str) -> &[(usize, String)] {
        self.sections.get(name).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// Splits a file into boards: a board is a run of non-empty lines with at least one tag.
/// `%` and `;` start comments (PBN's).
pub fn parse(text: &str) -> Result<Vec<BoardText>, String> {
    let mut boards = Vec::new();
    let mut cur: Option<BoardText> = None;
    let mut section: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.starts_with('%') || line.starts_with(';') {
            continue;
        }
        if line.is_empty() {
            if let Some(b) = cur.take() {
                boards.push(b);
            }
            section = None;
            continue;
        }
        if let Some(inner) = line.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| format!("line {n}: a tag ends with ]"))?;
            let (name, value) = inner
                .split_once(' ')
                .ok_or_else(|| format!("line {n}: a tag is [Name \"value\"]"))?;
            let value: String = serde_json::from_str(value.trim()).map_err(|e| {
                format!("line {n}: the value of [{name}] is not a quoted string: {e}")
            })?;
            let b = cur.get_or_insert_with(|| BoardText {
                line: n,
                ..BoardText::default()
            });
            if b.tags.insert(name.to_string(), value).is_some() {
                return Err(format!("line {n}: [{name}] twice in one board"));
            }
            section = Some(name.to_string());
            continue;
        }
        let (Some(b), Some(s)) = (cur.as_mut(), section.as_ref()) else {
            return Err(format!("line {n}: data before any tag"));
        };
        b.sections
            .entry(s.clone())
            .or_default()
            .push((n, line.to_string()));
    }
    if let Some(b) = cur.take() {
        boards.push(b);
    }
    Ok(boards)
}

fn parse_cards_line(n: usize, text: &str) -> Result<Vec<Card>, String> {
    rules::cards::parse_list(text).map_err(|e| format!("line {n}: {e}"))
}

fn sorted(mut v: Vec<Card>) -> Vec<Card> {
    v.sort();
    v
}

/// The log entries of the `Play` section, without hashes.
fn play_entries<G: GameWords>(b: &BoardText) -> Result<Vec<LogEntry>, String> {
    let mut out = Vec::new();
    for (n, line) in b.lines("Play") {
        let n = *n;
        // The part after ` | ` (time, id, occupant, reason) may be left out of a board
        // written by hand: the time is then 0.
        let (left, meta) = line.split_once(" | ").unwrap_or((line.as_str(), ""));
        let mut parts = left.splitn(4, ' ');
        let seq: u64 = parts
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("line {n}: no seq"))?;
        let seat = parts.next().ok_or_else(|| format!("line {n}: no seat"))?;
        let seat = words::parse_seat::<G>(seat).map_err(|e| format!("line {n}: {e}"))?;
        let actor = parts.next().ok_or_else(|| format!("line {n}: no actor"))?;
        let actor =
            Actor::parse(actor).ok_or_else(|| format!("line {n}: unknown actor {actor:?}"))?;
        let action =
            from_notation(parts.next().unwrap_or("")).map_err(|e| format!("line {n}: {e}"))?;
        let meta = meta.trim();
        let (head, reason) = match meta.find("reason=") {
            Some(i) => {
                let r: String = serde_json::from_str(meta[i + 7..].trim())
                    .map_err(|e| format!("line {n}: reason=: {e}"))?;
                (meta[..i].trim(), Some(r))
            }
            None => (meta, None),
        };
        let mut tokens = head.split_whitespace().peekable();
        let time_ms = match tokens.peek() {
            Some(t) if !t.contains('=') => {
                let t = tokens.next().expect("peeked");
                words::parse_iso_time(t).ok_or_else(|| {
                    format!("line {n}: {t:?} is not a time like 2024-05-07T08:00:05.123Z")
                })?
            }
            _ => 0,
        };
        let (mut client_id, mut occupant) = (None, None);
        for t in tokens {
            match t.split_once('=') {
                Some(("id", v)) => {
                    client_id = Some(v.parse().map_err(|_| format!("line {n}: id={v}"))?)
                }
                Some(("by", v)) => occupant = Some(v.to_string()),
                _ => return Err(format!("line {n}: unknown field {t:?}")),
            }
        }
        out.push(LogEntry {
            seq,
            seat,
            actor,
            client_id,
            occupant,
            reason,
            action,
            time_ms,
            hash: String::new(),
        });
    }
    Ok(out)
}

fn seats<G: GameWords>(b: &BoardText) -> Result<Vec<SeatRecord>, String> {
    let mut out = Vec::new();
    for (n, line) in b.lines("Seats") {
        let (label, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let seat = words::parse_seat::<G>(label).map_err(|e| format!("line {n}: {e}"))?;
        let rest = rest.trim();
        let (bot, rest) = match rest.strip_prefix("bot") {
            Some(r) => (true, r.trim()),
            None => (false, rest),
        };
        let name = match rest {
            "" | "-" => None,
            q => Some(
                serde_json::from_str::<String>(q)
                    .map_err(|e| format!("line {n}: a name is quoted: {e}"))?,
            ),
        };
        out.push(SeatRecord {
            seat,
            name,
            token_hash: None,
            bot,
        });
    }
    Ok(out)
}

/// A board read back: the table it makes, checked.
#[derive(Debug)]
pub struct Imported<G: Engine> {
    pub checked: Checked<G>,
    /// What was checked besides the replay (the deal against a re-deal, the head).
    pub findings: Vec<String>,
    /// The file gave a seed: the table can be stored.
    pub storable: bool,
}

fn mismatch(b: &BoardText, what: &str) -> String {
    format!("board at line {}: {what}", b.line)
}

/// Reads one board back into a table record and checks it: seed and commitment, the deal
/// against a re-deal, every action through the engine, the result, the head hash. `rename`:
/// store under another id (the chain is then rebuilt for it).
pub fn import_board<G: BoardFileGame>(
    b: &BoardText,
    rename: Option<&str>,
) -> Result<Imported<G>, String> {
    if b.game()? != G::GAME {
        return Err(mismatch(
            b,
            &format!("[Game {:?}] is not {}", b.game()?, G::GAME),
        ));
    }
    let tags = HeaderTags::read::<G>(b, rename)?;
    let mut entries = play_entries::<G>(b)?;
    let seats = seats::<G>(b)?;
    let hands_given = deal_given(b)?;
    let Some(seed_hex) = b.get("Seed") else {
        // A board written by hand: the deal as given, played through the engine.
        let header = tags.unseeded::<G>();
        let checked = check_unseeded::<G>(b, header, &hands_given, &entries, seats)?;
        return Ok(Imported {
            checked,
            findings: vec![
                "no seed: the deal was played as written (nothing to re-deal it from)".into(),
            ],
            storable: false,
        });
    };
    let header = tags.seeded::<G>(b, seed_hex)?;
    let mut findings = Vec::new();
    if !hands_given.is_empty() {
        findings.push(check_deal::<G>(b, &header, &hands_given)?);
    }
    let head = rechain(&header, &mut entries);
    let state = match b.get("State") {
        Some(s) => parse_state(s).ok_or_else(|| mismatch(b, &format!("[State {s:?}]")))?,
        None => TableState::Playing,
    };
    let table = StoredTable {
        header,
        state,
        seats,
        log: entries,
    };
    let mut checked = replayed::check::<G>(table, None);
    if b.get("State").is_none() && checked.replayed.as_ref().is_some_and(|r| r.end.is_over()) {
        checked.table.state = TableState::Over;
    }
    if let Some(f) = &checked.fault {
        return Err(mismatch(b, &f.words.en));
    }
    if let Some(h) = b.get("Head") {
        if rename.is_none() || rename == b.get("Table") {
            findings.push(check_head(b, h, &head)?);
        }
    }
    check_result(b, &checked)?;
    Ok(Imported {
        checked,
        findings,
        storable: true,
    })
}

/// What a board's tags give its header, seed or none.
struct HeaderTags {
    /// The `Table` tag, or the id to store it under instead.
    id: String,
    ruleset: String,
    /// The ruleset's options as recorded; this build's, when the file gives none.
    options: String,
    board: u32,
    /// The `Created` time; 0 when not written.
    created_ms: u64,
}

impl HeaderTags {
    fn read<G: BoardFileGame>(b: &BoardText, rename: Option<&str>) -> Result<HeaderTags, String> {
        let ruleset = b.get("Ruleset").unwrap_or(G::DEFAULT_RULESET).to_string();
        let options = b
            .get("Options")
            .map(str::to_string)
            .unwrap_or_else(|| G::options(&ruleset));
        let board = b.board()?;
        let id = rename
            .map(str::to_string)
            .or_else(|| b.get("Table").map(str::to_string))
            .ok_or_else(|| mismatch(b, "no [Table] tag (or give --as ID)"))?;
        let created_ms = match b.get("Created") {
            Some(t) => {
                words::parse_iso_time(t).ok_or_else(|| mismatch(b, "[Created] is not a time"))?
            }
            None => 0,
        };
        Ok(HeaderTags {
            id,
            ruleset,
            options,
            board,
            created_ms,
        })
    }

    /// The header of a board written by hand: no seed, no chain, nothing fixed, no time.
    fn unseeded<G: BoardFileGame>(self) -> TableHeader {
        TableHeader {
            id: self.id,
            game: G::GAME.to_string(),
            ruleset: self.ruleset,
            options: self.options,
            deal_algorithm: String::new(),
            seed: String::new(),
            seed_commitment: String::new(),
            board: self.board,
            fixed: "{}".into(),
            created_ms: 0,
        }
    }

    /// The header of a seeded board; its seed must hash to the `Commitment` written.
    fn seeded<G: BoardFileGame>(
        self,
        b: &BoardText,
        seed_hex: &str,
    ) -> Result<TableHeader, String> {
        let seed = Seed::from_hex(seed_hex).map_err(|e| mismatch(b, &e.0))?;
        let commitment = seed.commitment();
        if let Some(c) = b.get("Commitment") {
            if !c.eq_ignore_ascii_case(&commitment) {
                return Err(mismatch(
                    b,
                    &format!("the seed hashes to {commitment}, not to the [Commitment] {c}"),
                ));
            }
        }
        Ok(TableHeader {
            id: self.id,
            game: G::GAME.to_string(),
            ruleset: self.ruleset,
            options: self.options,
            deal_algorithm: b
                .get("Algorithm")
                .unwrap_or(rules::deal::ALGORITHM)
                .to_string(),
            seed: seed.to_hex(),
            seed_commitment: commitment,
            board: self.board,
            fixed: b.get("Fixed").unwrap_or("{}").to_string(),
            created_ms: self.created_ms,
        })
    }
}

/// The hands of the `Deal` section by their labels.
fn deal_given(b: &BoardText) -> Result<BTreeMap<String, Vec<Card>>, String> {
    b.lines("Deal")
        .iter()
        .map(|(n, l)| {
            let (label, cards) = l.split_once(' ').unwrap_or((l.as_str(), ""));
            Ok((label.to_string(), parse_cards_line(*n, cards)?))
        })
        .collect()
}

/// The deal written against a re-deal from the header, as the table dealt it: the tags the
/// deal decides, then every hand. What was found, or where they differ.
fn check_deal<G: BoardFileGame>(
    b: &BoardText,
    header: &TableHeader,
    hands_given: &BTreeMap<String, Vec<Card>>,
) -> Result<String, String> {
    // The one way a stored header is dealt: as the table dealt it.
    let dealt = dealt::<G>(header).map_err(|w| mismatch(b, &w.en))?.engine;
    for (tag_name, want) in G::deal_tags(&dealt) {
        if let Some(got) = b.get(tag_name) {
            if !got.eq_ignore_ascii_case(&want) {
                return Err(mismatch(
                    b,
                    &format!("[{tag_name} {got:?}] but the re-deal gives {want:?}"),
                ));
            }
        }
    }
    let redealt = G::deal_hands(header, &dealt).map_err(|e| mismatch(b, &e))?;
    for (label, want) in &redealt {
        match hands_given.get(*label) {
            Some(got) if sorted(got.clone()) == sorted(want.clone()) => {}
            Some(got) => {
                return Err(mismatch(
                    b,
                    &format!(
                        "the hand of {label} is not the re-deal's: written {}, re-dealt {}",
                        words::cards(&sorted(got.clone())),
                        words::cards(&sorted(want.clone()))
                    ),
                ))
            }
            None => return Err(mismatch(b, &format!("[Deal] has no line for {label}"))),
        }
    }
    Ok(format!(
        "the deal is the re-deal of board {} from the seed ({})",
        header.board, header.deal_algorithm
    ))
}

/// The log's hash chain rebuilt on `header`; its last hash (the genesis for an empty log).
fn rechain(header: &TableHeader, entries: &mut [LogEntry]) -> String {
    let mut prev = store::genesis(header);
    for e in entries {
        e.hash = store::entry_hash(&prev, e);
        prev = e.hash.clone();
    }
    prev
}

/// The rebuilt chain against the `Head` written: what was found, or that they differ.
fn check_head(b: &BoardText, written: &str, rebuilt: &str) -> Result<String, String> {
    if !written.eq_ignore_ascii_case(rebuilt) {
        return Err(mismatch(
            b,
            &format!("the rebuilt chain ends at {rebuilt}, not at the [Head] {written}: some field of the header or the play differs from the record it was written from"),
        ));
    }
    Ok(format!(
        "the rebuilt hash chain ends at the [Head] written ({}…)",
        &rebuilt[..16]
    ))
}

/// The written `Result` (and `Places`) against the replay's.
fn check_result<G: BoardFileGame>(b: &BoardText, checked: &Checked<G>) -> Result<(), String> {
    let run = checked.replayed.as_ref().ok_or("nothing replayed")?;
    let ours = [("Result", G::result_tag(&run.end))]
        .into_iter()
        .chain(G::more_result_tags(&run.end));
    for (name, ours) in ours {
        if let Some(written) = b.get(name) {
            if written.trim() != ours {
                return Err(mismatch(
                    b,
                    &format!("[{name} {written:?}] but the play reaches {ours:?}"),
                ));
            }
        }
    }
    Ok(())
}

/// A board without a seed: its deal as written, played through the engine.
fn check_unseeded<G: BoardFileGame>(
    b: &BoardText,
    header: TableHeader,
    hands: &BTreeMap<String, Vec<Card>>,
    entries: &[LogEntry],
    seats: Vec<SeatRecord>,
) -> Result<Checked<G>, String> {
    let hand = |label: &str| {
        hands
            .get(label)
            .cloned()
            .ok_or_else(|| mismatch(b, &format!("no seed, and [Deal] has no line for {label}")))
    };
    let rules = serde_json::from_str(&header.options)
        .ok()
        .or_else(|| G::ruleset(&header.ruleset).ok())
        .ok_or_else(|| mismatch(b, &format!("unknown ruleset {:?}", header.ruleset)))?;
    let (run, fault) = Run::replay(G::as_written(b, rules, &hand)?, entries);
    if let Some(f) = fault {
        return Err(mismatch(b, &f.words.en));
    }
    let state = if run.end.is_over() {
        TableState::Over
    } else {
        TableState::Playing
    };
    let checked = Checked {
        table: StoredTable {
            header,
            state,
            seats,
            log: entries.to_vec(),
        },
        replayed: Some(run),
        fault: None,
        notes: Vec::new(),
    };
    check_result(b, &checked)?;
    Ok(checked)
}

/// Stores an imported table. A table of that id already stored is left alone if it is the same
/// record (same header, same log); otherwise refused.
pub fn store_table(db: &std::path::Path, t: &StoredTable) -> Result<&'static str, String> {
    let mut store = store::SqliteStore::open(db).map_err(|e| format!("{}: {e}", db.display()))?;
    if let Some(old) = store.table(&t.header.id).map_err(|e| e.to_string())? {
        return if old.header == t.header && old.log == t.log {
            Ok("already stored, identical")
        } else {
            Err(format!(
                "{} already holds a different table {} (import it --as another id)",
                db.display(),
                t.header.id
            ))
        };
    }
    if !store.create_table(t).map_err(|e| e.to_string())? {
        // Stored by another process since the look above.
        return Err(format!(
            "{} already holds a table {}",
            db.display(),
            t.header.id
        ));
    }
    let entries: Vec<(String, LogEntry)> = t
        .log
        .iter()
        .map(|e| (t.header.id.clone(), e.clone()))
        .collect();
    store.append(&entries).map_err(|e| e.to_string())?;
    Ok("stored")
}

/// The board of a file that the tools taking `--file` instead of a database read: the one
/// board in it, or the one with `[Table "id"]`.
pub fn board_of_file(path: &std::path::Path, id: Option<&str>) -> Result<BoardText, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let path = path.display();
    let mut boards = parse(&text).map_err(|e| format!("{path}: {e}"))?;
    match id {
        Some(id) => {
            let i = boards
                .iter()
                .position(|b| b.get("Table") == Some(id))
                .ok_or_else(|| format!("{path}: no board with [Table \"{id}\"]"))?;
            Ok(boards.swap_remove(i))
        }
        None if boards.len() == 1 => Ok(boards.remove(0)),
        None => Err(format!(
            "{path} holds {} boards: name one by its table id",
            boards.len()
        )),
    }
}

/// What `paiju import` says of a board read back: `sj1：80分 第 1 副，52 条动作，结果 85`.
pub fn imported<G: BoardFileGame>(imported: &Imported<G>) -> Words {
    let t = &imported.checked.table;
    let what = match &imported.checked.replayed {
        Some(run) => G::result_tag(&run.end),
        None => "*".into(),
    };
    let (id, board, n) = (&t.header.id, t.header.board, t.log.len());
    Words::new(
        format!(
            "{id}：{} 第 {board} {}，{n} 条动作，结果 {what}",
            G::title(Lang::Zh),
            G::deal_word(Lang::Zh)
        ),
        format!(
            "{id}: {} {} {board}, {n} actions, result {what}",
            G::GAME,
            G::deal_word(Lang::En)
        ),
    )
}
