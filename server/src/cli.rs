//! The command line (clap, derive), every subcommand of it: `serve`, `load`, `bot`, `arena`,
//! `verify`, `migrate`, the referee's `deal`, `judge`, `replay`, `explain`, `export`, `import`
//! and `record-card`, and `event …`. Every value is checked here, so a bad flag stops the
//! program with a clear message and exit code 2 before anything starts (a NaN clock scale or a
//! negative idle time used to panic deep inside the server), and `paiju <command> --help` says
//! what each takes. The referee's commands then run in `server::referee::command`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use server::limits::Limits;
use server::referee::command::{self, TableAt};
use server::referee::desk::desk_of;
use server::referee::lang::Lang;
use server::referee::{self};
use server::store::{self, Store};
use server::{Config, Games};

#[derive(Parser, Debug)]
#[command(
    name = "paiju",
    version,
    about = "paiju: 80分 and 够级 tables in the browser, and the referee's tools",
    subcommand_required = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The table server: lobby, tables, WebSockets and the web client.
    // Boxed: the serve flags are many (clippy's large_enum_variant).
    Serve(Box<ServeArgs>),
    /// The load generator: starts its own `paiju serve` and drives N tables of WebSocket bots.
    Load(LoadArgs),
    /// Plays one seat over WebSocket like a browser, at a level: --url ws://HOST:PORT --table ID
    /// --seat N --level beginner|club|expert.
    Bot(BotArgs),
    /// Level A against level B in duplicate (each deal twice, sides swapped) on all cores: the
    /// mean score difference per deal with its 95 % interval, and decision times.
    Arena(ArenaArgs),
    /// Fair play: which pairs (够级: teams) of an event play as if they saw their partner's
    /// (teammates') cards (a figure for the referee, never a verdict); --calibrate: the statistic's false alarms and power on
    /// simulated sessions (docs/fairplay.md).
    Fairplay(FairplayArgs),
    /// Checks the hash chains of stored logs.
    Verify(VerifyArgs),
    /// Copies a SQLite store (tables and events) into PostgreSQL (past one machine), checking
    /// every chain.
    Migrate(MigrateArgs),
    /// One board re-dealt from its seed, as JSON (docs/referee.md).
    Deal(DealArgs),
    /// Answers rule questions, one JSON object a line on standard input (docs/referee.md).
    Judge,
    /// Replays a stored table through the engine, every hand shown, checking its chain and
    /// result; --at N the full state after action N.
    Replay(ReplayArgs),
    /// Why a logged action was legal, or (--try) why another would be refused.
    Explain(ExplainArgs),
    /// Writes stored tables in the board format (docs/referee.md).
    Export(ExportArgs),
    /// Checks the boards of a board file against a re-deal and stores them.
    Import(ImportArgs),
    /// The printable record card (随牌记录卡) of 80分 boards, as HTML.
    RecordCard(RecordCardArgs),
    /// Events: a Mitchell movement, or an 80分 duplicate session scored (docs/tournaments.md).
    #[command(subcommand)]
    Event(EventCommand),
}

#[derive(Subcommand, Debug)]
pub enum EventCommand {
    /// Prints a Mitchell movement as JSON (or one table's movement card).
    Movement(MovementArgs),
    /// Reads a session's results as one JSON object on standard input; prints every board's
    /// matchpoints and the NS and EW rankings with places.
    Score,
}

#[derive(Args, Debug)]
pub struct MovementArgs {
    /// Tables in play.
    #[arg(long, value_name = "N")]
    pub tables: u32,
    /// Rounds.
    #[arg(long, value_name = "R")]
    pub rounds: u32,
    /// Boards each round.
    #[arg(long, value_name = "K")]
    pub boards_per_round: u32,
    /// Even tables: a relay (bye stand) between the middle tables.
    #[arg(long, conflicts_with = "skip")]
    pub relay: bool,
    /// Even tables: the EW pairs skip a table halfway.
    #[arg(long)]
    pub skip: bool,
    /// With --skip: skip after round N instead of after round T/2 (a curtailed event may skip
    /// from round R − T/2 on).
    #[arg(long, value_name = "N", requires = "skip")]
    pub skip_after: Option<u32>,
    /// With --skip: allow the T-th round, the revenge round (EW meet their first opponents
    /// again, on new boards).
    #[arg(long, requires = "skip")]
    pub revenge: bool,
    /// Print this table's movement card (text) instead of the JSON.
    #[arg(long, value_name = "T")]
    pub card: Option<u32>,
}

/// Where a referee command reads its tables: a database (`--db`), or a board file (`--file`).
#[derive(Args, Debug)]
pub struct DbArg {
    /// The SQLite database (a copy made with `sqlite3 .backup` is best).
    #[arg(long, value_name = "FILE", default_value = "paiju.db")]
    pub db: PathBuf,
}

/// The language of a referee command's report.
#[derive(Args, Debug)]
pub struct LangArg {
    /// zh (the default, as the players speak) or en.
    #[arg(long, value_name = "zh|en", default_value = "zh", value_parser = lang)]
    pub lang: Lang,
}

fn lang(s: &str) -> Result<Lang, String> {
    Lang::parse(s)
}

/// 80分's wire name: the game of `deal`, `load` and `arena` when none is named.
const SHENGJI: &str = <rules::shengji::Board as server::TableGame>::GAME;

/// A game this server hosts, by its wire name.
fn hosted_game(s: &str) -> Result<String, String> {
    let games = Games::standard();
    match games.get(s) {
        Some(_) => Ok(s.to_string()),
        None => Err(format!(
            "unknown game {s:?} ({})",
            games.names().join(" or ")
        )),
    }
}

/// A game the arena plays (its wire name, or 80分 / 够级).
fn arena_game(s: &str) -> Result<bots::arena::Game, String> {
    use bots::arena::Game;
    Game::parse(s).ok_or_else(|| {
        let known = [Game::Shengji, Game::Gouji].map(Game::name);
        format!("unknown game {s:?} ({})", known.join(" or "))
    })
}

/// A game the referee's desk knows, by its wire name.
fn game(s: &str) -> Result<String, String> {
    desk_of(&Games::standard(), s)
        .map(|_| s.to_string())
        .map_err(|w| w.en)
}

/// 64 hex digits (kept as text: the seed type prints nothing, on purpose).
fn seed(s: &str) -> Result<String, String> {
    rules::deal::Seed::from_hex(s)
        .map(|seed| seed.to_hex())
        .map_err(|e| rules::Explain::en(&e))
}

#[derive(Args, Debug)]
pub struct DealArgs {
    /// The game: its wire name.
    #[arg(long, default_value = SHENGJI, value_parser = game)]
    pub game: String,
    /// The seed: 64 hex digits.
    #[arg(long, value_name = "HEX", value_parser = seed)]
    pub seed: String,
    /// The board (80分) or game (够级) number.
    #[arg(long, value_name = "N")]
    pub board: u32,
}

/// Where `replay` and `explain` read their table, and the hash its log must end at.
#[derive(Args, Debug)]
pub struct SourceArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// A board file instead of the database.
    #[arg(long, value_name = "BOARD FILE")]
    pub file: Option<PathBuf>,
    /// The `head_hash` published with the result: the log's last hash must still be it.
    #[arg(long, value_name = "HASH", conflicts_with = "file")]
    pub head: Option<String>,
}

impl SourceArgs {
    /// The board file's board (the one of that id, or the only one), or the database's table.
    fn table_at(&self, id: Option<&str>) -> TableAt {
        match &self.file {
            Some(path) => TableAt::File {
                path: path.clone(),
                id: id.map(str::to_string),
            },
            None => TableAt::Stored {
                db: self.db.db.clone(),
                id: id.unwrap_or_default().to_string(),
            },
        }
    }
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The table's id; with --file, which board of the file (needed when it holds several).
    #[arg(value_name = "TABLE ID", required_unless_present = "file")]
    pub table: Option<String>,
    #[command(flatten)]
    pub source: SourceArgs,
    /// The full state (every hand) after action N instead of the whole game (0: as dealt).
    #[arg(long, value_name = "N")]
    pub at: Option<u64>,
    /// JSON instead of text (with --at: the engine's referee view).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub lang: LangArg,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The table's id. With --file: the board with that [Table] tag, which may be left out
    /// (SEQ alone) when the file holds one board.
    #[arg(value_name = "TABLE ID")]
    pub table: String,
    /// The entry asked about: the log is replayed to the one before it.
    #[arg(value_name = "SEQ")]
    pub seq: Option<u64>,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Another action at that point, as JSON (`{"type":"play","cards":["C2"]}`): why the
    /// engine would refuse it, or what it would do. SEQ may be one past the last entry.
    #[arg(long = "try", value_name = "ACTION JSON", requires = "seat")]
    pub try_action: Option<String>,
    /// With --try: the seat that would act (an index, or N E S W, or A1 … B3).
    #[arg(long, value_name = "SEAT", requires = "try_action")]
    pub seat: Option<String>,
    /// With --try: who would act (player, bot, auto, clock, referee); by default who may take
    /// such an action.
    #[arg(long, value_name = "ACTOR", requires = "try_action", value_parser = actor)]
    pub actor: Option<rules::Actor>,
    /// Also value the decision (an 80分 play) with every hand known and on the seat's own view:
    /// the fair-play question (docs/referee.md). Takes up to a few seconds.
    #[arg(long)]
    pub all_seeing: bool,
    /// JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub lang: LangArg,
}

fn table_id(s: &str) -> Result<String, String> {
    server::seat_token::check_table_code(s).map(|()| s.to_string())
}

fn actor(s: &str) -> Result<rules::Actor, String> {
    rules::Actor::parse(s)
        .ok_or_else(|| format!("unknown actor {s:?} (player, bot, auto, clock or referee)"))
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The tables to write, one board after another.
    #[arg(value_name = "TABLE ID", required = true)]
    pub tables: Vec<String>,
    #[command(flatten)]
    pub db: DbArg,
    /// The `Event` tag's value: the event's name.
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The board file (`-`: standard input).
    #[arg(value_name = "BOARD FILE")]
    pub file: String,
    /// Where to store the tables (created if it does not exist).
    #[arg(long, value_name = "FILE", default_value = "paiju.db")]
    pub db: PathBuf,
    /// Check every board, store none.
    #[arg(long)]
    pub check: bool,
    /// Store the one board of the file under this table id (its chain is rebuilt for it): 1 to
    /// 8 letters or digits, as the server makes them.
    #[arg(long = "as", value_name = "ID", value_parser = table_id)]
    pub rename: Option<String>,
    #[command(flatten)]
    pub lang: LangArg,
}

#[derive(Args, Debug)]
pub struct RecordCardArgs {
    /// The 80分 tables, one card each.
    #[arg(value_name = "TABLE ID", required = true)]
    pub tables: Vec<String>,
    #[command(flatten)]
    pub db: DbArg,
    /// The paper the cards are printed on, one card a page.
    #[arg(long, value_name = "PAPER", default_value = "a5", value_parser = ["a5", "a4"], ignore_case = true)]
    pub paper: String,
    /// The event's name, printed on each card.
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    #[command(flatten)]
    pub lang: LangArg,
}

/// `paiju deal`.
pub fn deal(a: DealArgs) -> Result<(), String> {
    command::deal(&Games::standard(), &a.game, &a.seed, a.board)
}

/// `paiju replay`.
pub fn replay(a: ReplayArgs) -> Result<(), String> {
    let opts = referee::replay::Options {
        lang: a.lang.lang,
        json: a.json,
        at: a.at,
    };
    let at = a.source.table_at(a.table.as_deref());
    command::replay(&Games::standard(), &at, a.source.head.as_deref(), &opts)
}

/// `paiju explain`: `<table id> <seq>`, or with --file `[<table id>] <seq>`.
pub fn explain(a: ExplainArgs) -> Result<(), String> {
    let (id, seq) = match (a.seq, &a.source.file) {
        (Some(seq), _) => (Some(a.table.as_str()), seq),
        (None, Some(_)) => {
            let seq = a
                .table
                .parse()
                .map_err(|_| format!("<SEQ> must be a whole number, not {:?}", a.table))?;
            (None, seq)
        }
        (None, None) => return Err("expected <TABLE ID> <SEQ>".into()),
    };
    let at = a.source.table_at(id);
    let try_action = match (a.try_action, a.seat) {
        (Some(action), Some(seat)) => Some(referee::explain::Try {
            action,
            seat,
            actor: a.actor,
        }),
        _ => None,
    };
    let asked = command::Asked {
        seq,
        try_action,
        all_seeing: a.all_seeing,
    };
    command::explain(
        &Games::standard(),
        &at,
        a.source.head.as_deref(),
        &asked,
        a.lang.lang,
        a.json,
    )
}

/// `paiju export`.
pub fn export(a: ExportArgs) -> Result<(), String> {
    command::export(&Games::standard(), &a.db.db, &a.tables, a.event.as_deref())
}

/// `paiju import`.
pub fn import(a: ImportArgs) -> Result<(), String> {
    command::import(
        &Games::standard(),
        &a.file,
        &a.db,
        a.check,
        a.rename.as_deref(),
        a.lang.lang,
    )
}

/// `paiju record-card`.
pub fn record_card(a: RecordCardArgs) -> Result<(), String> {
    let opts = referee::record_card::CardOptions {
        lang: a.lang.lang,
        paper: a.paper.to_ascii_lowercase(),
        event: a.event,
    };
    command::record_card(&Games::standard(), &a.db.db, &a.tables, &opts)
}

/// `paiju event …`: the pure event logic of the `tournament` crate. A refusal is printed as the
/// JSON problem `{"code","zh","en"}`.
pub fn event(cmd: EventCommand) -> Result<(), String> {
    let wire = |e: tournament::Error| serde_json::to_string(&e.wire()).expect("serialisable");
    let out = match cmd {
        EventCommand::Movement(a) => {
            let variant = match (a.relay, a.skip) {
                (true, _) => tournament::Variant::Relay,
                (_, true) => tournament::Variant::Skip,
                _ => tournament::Variant::Plain,
            };
            let options = tournament::Options {
                skip_after: a.skip_after,
                revenge: a.revenge,
            };
            let planned =
                tournament::plan(a.tables, a.rounds, a.boards_per_round, variant, options)
                    .map_err(wire)?;
            // Warnings (a curtailed relay) go to standard error, one JSON problem a line, so
            // the movement on standard output stays what scripts read.
            for w in &planned.warnings {
                eprintln!(
                    "{}",
                    serde_json::to_string(&w.wire()).expect("serialisable")
                );
            }
            let m = planned.movement;
            match a.card {
                Some(table) => tournament::movement_card(&m, table).map_err(wire)?,
                None => serde_json::to_string(&m).expect("serialisable"),
            }
        }
        EventCommand::Score => {
            use std::io::Read;
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| e.to_string())?;
            let input: tournament::ScoreInput = serde_json::from_str(&text).map_err(|e| {
                serde_json::json!({
                    "code": "bad_json",
                    "zh": format!("输入不是有效的成绩 JSON：{e}"),
                    "en": format!("the input is not valid score JSON: {e}"),
                })
                .to_string()
            })?;
            let out = tournament::score(input).map_err(wire)?;
            serde_json::to_string_pretty(&out).expect("serialisable")
        }
    };
    println!("{out}");
    Ok(())
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Where to listen (0.0.0.0:8080 to serve a room's network).
    #[arg(long, value_name = "ADDR", default_value_t = Config::default().listen)]
    pub listen: SocketAddr,
    /// The SQLite database file (created on first start), or a `postgres://…` URL to run as one
    /// of several nodes on one PostgreSQL database.
    #[arg(long, value_name = "FILE|URL", default_value = "paiju.db")]
    pub db: PathBuf,
    /// With PostgreSQL: the address clients reach this node at (e.g. 10.0.0.2:8080 or
    /// https://paiju.example.org/n2), sent to clients that ask another node for its tables.
    /// Default: the address it listens on.
    #[arg(long, value_name = "ADDR", value_parser = server::advertised)]
    pub advertise: Option<String>,
    /// With PostgreSQL: how long a table's lease lasts unless renewed (renewed every fifth of
    /// it): how soon other nodes take over the tables of a node that died (1 to 600).
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = lease_seconds, allow_negative_numbers = true)]
    pub lease_secs: f64,
    /// Serve the web client from this directory (while working on it) instead of the copy built
    /// into the binary.
    #[arg(long, value_name = "DIR")]
    pub web: Option<PathBuf>,
    /// The token that gives the referee role: at least 32 random characters (128 bits), or
    /// `generate` for a fresh 256-bit one, printed once. None: no referee role.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "PAIJU_REFEREE_TOKEN",
        hide_env_values = true,
        value_parser = referee_token
    )]
    pub referee_token: Option<RefereeToken>,
    /// The token that gives the director role (裁判长: events — create, start and close
    /// rounds, adjust, deduct, reveal), sent as `Authorization: Bearer …`; the same strength
    /// rules as the referee's, or `generate`. Never the referee's. None: no director role.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "PAIJU_DIRECTOR_TOKEN",
        hide_env_values = true,
        value_parser = director_token
    )]
    pub director_token: Option<RefereeToken>,
    /// Real seconds per game second, more than 0 and at most 100 (tests use ~0.01).
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = clock_scale, allow_negative_numbers = true)]
    pub clock_scale: f64,
    /// How long a bot in a seat waits before playing (0 to 60000).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 600,
        value_parser = clap::value_parser!(u64).range(0..=60_000),
        allow_negative_numbers = true
    )]
    pub bot_delay_ms: u64,
    /// How long a 高手 (expert) bot thinks per decision on a quiet server, less when many
    /// bots think at once (50 to 10000).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(50..=10_000)
    )]
    pub expert_think_ms: u64,
    /// Threads for the 高手 searches of every table (lowest priority, docs/bots.md); 0: one
    /// fewer than the cores, at least one.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        env = "PAIJU_SEARCH_THREADS",
        value_parser = clap::value_parser!(u64).range(0..=256)
    )]
    pub search_threads: u64,
    /// A table with no connection for this long is closed, its log kept (more than 0, at most
    /// 10080: a week).
    #[arg(long, value_name = "M", default_value_t = 30.0, value_parser = idle_minutes, allow_negative_numbers = true)]
    pub idle_minutes: f64,
    /// Cap on open tables (503 too_many_tables beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_tables, value_parser = count)]
    pub max_tables: usize,
    /// Cap on WebSockets (close 1013 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_connections, value_parser = count)]
    pub max_connections: usize,
    /// Cap on open TCP connections from one client address (IPv6: one /64); more are closed at
    /// once. Behind a proxy every client has the proxy's address: raise it.
    #[arg(
        long,
        value_name = "N",
        env = "PAIJU_MAX_CONNECTIONS_PER_IP",
        default_value_t = Limits::default().max_connections_per_ip,
        value_parser = count
    )]
    pub max_connections_per_ip: usize,
    /// Tables one client address may create per minute (429 rate_limited beyond).
    #[arg(
        long,
        value_name = "N",
        env = "PAIJU_TABLES_PER_MINUTE",
        default_value_t = Limits::default().tables_per_minute,
        value_parser = per_minute
    )]
    pub tables_per_minute: f64,
    /// Tables one client address may create at once before the per-minute rate applies.
    #[arg(
        long,
        value_name = "N",
        env = "PAIJU_TABLE_BURST",
        default_value_t = Limits::default().table_burst,
        value_parser = per_minute
    )]
    pub table_burst: f64,
    /// Browser origins allowed besides the server's own host (`*`: any).
    #[arg(long, value_name = "URL[,URL]|*", value_delimiter = ',')]
    pub allow_origin: Vec<String>,
    /// Host names the server answers to besides IP addresses and localhost, e.g. its public
    /// name behind a proxy (`*`: any). Others are refused (403 bad_host) against DNS rebinding.
    #[arg(long, value_name = "NAME[,NAME]|*", value_delimiter = ',')]
    pub allow_host: Vec<String>,
    /// Log lines on standard error: `text` for people, `json` (one object a line) for log
    /// collectors. Levels from RUST_LOG (default `info`; e.g. `RUST_LOG=server=debug`).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,
    /// The day's practice sets (练习, docs/practice.md): an 80分 set and a 够级 set open at the
    /// start of each practice day, with the computers' reference runs; `off`: only those an
    /// organiser makes.
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    pub practice_daily: bool,
    /// Where practice days begin: an offset from UTC, `+08:00` (China, the default), `-05:00`,
    /// `+05:30`.
    #[arg(long, value_name = "±HH:MM", default_value = "+08:00", value_parser = utc_offset, allow_hyphen_values = true)]
    pub practice_utc_offset: i32,
}

fn on_off(s: &str) -> Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{s:?}: on or off")),
    }
}

/// `+08:00` as minutes (480).
fn utc_offset(s: &str) -> Result<i32, String> {
    let bad = || format!("{s:?} is not an offset from UTC: e.g. +08:00, -05:00 or +05:30");
    let (sign, rest) = match s.as_bytes().first() {
        Some(b'+') => (1, &s[1..]),
        Some(b'-') => (-1, &s[1..]),
        _ => return Err(bad()),
    };
    let (h, m) = rest.split_once(':').ok_or_else(bad)?;
    let (h, m): (i32, i32) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    if h.abs() > 14 || !(0..60).contains(&m) || h < 0 {
        return Err(bad());
    }
    Ok(sign * (h * 60 + m))
}

/// Starts the log subscriber: RUST_LOG's filter (default `info`), text or JSON lines.
fn init_logs(format: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // A second start in one process (tests) keeps the first subscriber.
    let _ = if format == "json" {
        logs.json().with_current_span(true).try_init()
    } else {
        logs.try_init()
    };
}

/// How the referee token was given.
#[derive(Clone, Debug, PartialEq)]
pub enum RefereeToken {
    /// No referee role (an empty value, as an unset variable in a service file gives).
    Off,
    /// A fresh token is made at start and printed once.
    Generate,
    Given(String),
}

#[derive(Args, Debug)]
pub struct BotArgs {
    /// The server's WebSocket base, e.g. ws://127.0.0.1:8080 (http:// is taken too).
    #[arg(long, value_name = "URL")]
    pub url: String,
    /// The table's code.
    #[arg(long, value_name = "ID")]
    pub table: String,
    /// The seat to play (0-based, as the protocol counts).
    #[arg(long, value_name = "N")]
    pub seat: usize,
    /// How strong it plays: beginner (入门), club (普通), expert (高手).
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    pub level: bots::Level,
    /// The name it sits down under (not 「电脑·…」: that is the table's own bots').
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The seat's token, if it already sat down; otherwise it joins over HTTP.
    #[arg(long, value_name = "T")]
    pub token: Option<String>,
    /// Give up after this many minutes.
    #[arg(long, value_name = "M", default_value_t = 120)]
    pub minutes: u64,
}

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// shengji (80分: the defenders' points per board) or gouji (够级: team points per game).
    #[arg(long, default_value = SHENGJI, value_parser = arena_game)]
    pub game: bots::arena::Game,
    /// Level A: beginner, club or expert.
    #[arg(long, value_name = "LEVEL", default_value = "club", value_parser = level)]
    pub a: bots::Level,
    /// Level B.
    #[arg(long, value_name = "LEVEL", default_value = "beginner", value_parser = level)]
    pub b: bots::Level,
    /// Deals, each played twice with the sides swapped.
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = count)]
    pub deals: usize,
    /// The match's seed, in hex (deal n is dealt from it and n).
    #[arg(long, value_name = "HEX", default_value = "1", value_parser = hex_u64)]
    pub seed: u64,
    /// 高手's budget: playouts a decision (reproducible whatever the machine).
    #[arg(long, value_name = "N", conflicts_with = "time_ms")]
    pub playouts: Option<u32>,
    /// 高手's budget: milliseconds a decision (a table's kind of budget).
    #[arg(long, value_name = "MS")]
    pub time_ms: Option<u64>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// 80分: A's seats see every hand (the all-seeing player — 高手's search on the true
    /// deal, with the budget of --playouts — instead of --a): the bots' ceiling (docs/bots.md).
    #[arg(long)]
    pub a_sees_all: bool,
    /// Instead of a match: N 够级 games of one person and five 普通 bots; how long the person
    /// waits once out.
    #[arg(long, value_name = "N", conflicts_with_all = ["notes"])]
    pub person: Option<usize>,
    /// With --person: the person plays as 普通 (club) instead of eagerly at random.
    #[arg(long, value_name = "LEVEL", requires = "person", value_parser = ["random", "club"], default_value = "random")]
    pub person_plays: String,
    /// Instead of a match: N 够级 games checking that a seat's notes read every step.
    #[arg(long, value_name = "N")]
    pub notes: Option<usize>,
}

#[derive(Args, Debug)]
pub struct FairplayArgs {
    /// The event (its finished 80分 boards are analysed).
    #[arg(long, value_name = "ID", required_unless_present = "calibrate")]
    pub event: Option<String>,
    #[command(flatten)]
    pub db: DbArg,
    /// JSON instead of text.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// CSV instead of text: a line a pair.
    #[arg(long)]
    pub csv: bool,
    /// With --event: a file that keeps each board's analysis as it is done; run again with it,
    /// a stopped analysis goes on where it was.
    #[arg(long, value_name = "FILE", requires = "event")]
    pub resume: Option<PathBuf>,
    /// The figure (the fit of a pair's plays to its partner's hand, against the field, in
    /// standard deviations) at or above which a pair is marked for the referee.
    #[arg(long, value_name = "Z", default_value_t = bots::fairplay::THRESHOLD, value_parser = finite)]
    pub threshold: f64,
    /// Instead of an event: simulated sessions of computer pairs, one of them cheating
    /// (--cheat), scored: false alarms and power by session length, as a markdown table.
    #[arg(long, conflicts_with = "event")]
    pub calibrate: bool,
    /// With --calibrate: the game simulated — shengji (80分 pairs, boards) or gouji (够级
    /// teams, games: team A searching as the cheat does, team B 普通).
    #[arg(long, value_name = "GAME", default_value = "shengji", value_parser = calibration_game, requires = "calibrate")]
    pub game: bots::arena::Game,
    /// With --calibrate: the pairs' level.
    #[arg(long, value_name = "LEVEL", default_value = "club", value_parser = level, requires = "calibrate")]
    pub level: bots::Level,
    /// With --calibrate: the cheat's search (default: the pairs' level).
    #[arg(long, value_name = "LEVEL", value_parser = level, requires = "calibrate")]
    pub cheat_level: Option<bots::Level>,
    /// With --calibrate: score the E–W pairs too (twice the time; by default the N–S pairs,
    /// the cheat among them).
    #[arg(long, requires = "calibrate")]
    pub both_directions: bool,
    /// With --calibrate: the cheating pair sees its partner's hands, an opponent's, or there is
    /// none.
    #[arg(long, value_name = "WHO", default_value = "partner", value_parser = ["partner", "opponent", "none"], requires = "calibrate")]
    pub cheat: String,
    /// With --calibrate: sessions simulated.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = count, requires = "calibrate")]
    pub sessions: usize,
    /// With --calibrate: the session lengths reported (each a prefix of the longest).
    #[arg(
        long,
        value_name = "B,B,…",
        default_value = "8,16,24,48",
        value_delimiter = ',',
        requires = "calibrate"
    )]
    pub boards: Vec<usize>,
    /// With --calibrate: tables a session (two pairs each).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = count, requires = "calibrate")]
    pub tables: usize,
    /// With --calibrate: the run's seed, in hex. Runs to be pooled (--from) need seeds that
    /// differ in their high bits (1, 100000001, 200000001, …): seeds that differ only in their
    /// low bits share most of their sessions (a session's seed mixes the run's with its number
    /// by xor, `bots::Rng::mix`).
    #[arg(long, value_name = "HEX", default_value = "1", value_parser = hex_u64)]
    pub seed: u64,
    /// With --calibrate: also write every simulated pair's tallies, board by board, to FILE
    /// (JSON), so the table can be made again at another threshold (--from).
    #[arg(long, value_name = "FILE", requires = "calibrate")]
    pub save: Option<PathBuf>,
    /// With --calibrate: the table from files --save wrote (comma-separated: their sessions
    /// pooled, e.g. runs of other seeds made apart), instead of simulating.
    #[arg(
        long,
        value_name = "FILE,…",
        value_delimiter = ',',
        requires = "calibrate"
    )]
    pub from: Vec<PathBuf>,
    /// Deals that screen each decision, and fresh deals that then estimate it.
    #[arg(long, value_name = "N", default_value_t = bots::fairplay::SCREEN)]
    pub screen: u32,
    #[arg(long, value_name = "N", default_value_t = bots::fairplay::WORLDS)]
    pub worlds: u32,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// `paiju fairplay`.
pub fn fairplay(args: FairplayArgs) -> Result<(), String> {
    use bots::fairplay::simulate;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if let Some(id) = &args.event {
        let format = match (args.json, args.csv) {
            (true, _) => referee::fairplay::Format::Json,
            (_, true) => referee::fairplay::Format::Csv,
            _ => referee::fairplay::Format::Text,
        };
        return referee::fairplay::command(
            &args.db.db,
            id,
            format,
            args.threshold,
            threads,
            args.resume.as_deref(),
        );
    }
    let mut lengths = args.boards.clone();
    lengths.sort_unstable();
    lengths.dedup();
    let longest = *lengths.last().ok_or("--boards: at least one length")?;
    if lengths[0] == 0 {
        return Err("--boards: lengths of at least 1 board".into());
    }
    let mut config = simulate::Config::new(
        args.level,
        bots::fairplay::players::Peek::parse(&args.cheat),
        args.sessions,
        longest,
    );
    config.game = args.game;
    config.tables = args.tables.max(1);
    config.cheat_level = args.cheat_level.unwrap_or(args.level);
    config.both_directions = args.both_directions;
    config.seed = args.seed;
    config.threads = threads.max(1);
    config.screen = args.screen.max(1);
    config.worlds = args.worlds.max(2);
    let start = std::time::Instant::now();
    let sessions = if args.from.is_empty() {
        simulate::run(&config)
    } else {
        let mut all = Vec::new();
        for path in &args.from {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let some: Vec<simulate::Session> =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            all.extend(some);
        }
        all
    };
    // Stored runs may be shorter than the lengths asked for: a row past their end would
    // repeat the longest one under another name.
    let stored = sessions
        .iter()
        .flatten()
        .map(|p| p.boards.len())
        .min()
        .unwrap_or(0);
    if lengths.iter().any(|&n| n > stored) {
        eprintln!("the sessions have {stored} boards (games in 够级): longer rows left out");
        lengths.retain(|&n| n <= stored);
    }
    if let Some(path) = &args.save {
        let text = serde_json::to_string(&sessions).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    print!(
        "{}",
        simulate::report(&config, &sessions, &lengths, args.threshold)
    );
    println!("wall time: {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn calibration_game(s: &str) -> Result<bots::arena::Game, String> {
    bots::arena::Game::parse(s).ok_or_else(|| format!("{s:?} is not shengji or gouji"))
}

fn level(s: &str) -> Result<bots::Level, String> {
    bots::Level::parse(s).ok_or_else(|| format!("{s:?} is not beginner, club or expert"))
}

fn hex_u64(s: &str) -> Result<u64, String> {
    let digits = s.trim().trim_start_matches("0x");
    u64::from_str_radix(digits, 16).map_err(|e| format!("{s:?} is not hex (up to 16 digits): {e}"))
}

/// `paiju bot`: one seat played over WebSocket at a level, like a browser.
pub fn bot(args: BotArgs) -> Result<(), String> {
    let base = args.url.trim_end_matches('/');
    let host = base
        .split_once("://")
        .map_or(base, |(_, rest)| rest)
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let ws_base = match base.split_once("://") {
        Some(("http", rest)) => format!("ws://{rest}"),
        Some(("https", rest)) => format!("wss://{rest}"),
        Some(_) => base.to_string(),
        None => format!("ws://{base}"),
    };
    let url = format!("{ws_base}/ws/{}", args.table);
    let level = args.level;
    tokio::runtime::Runtime::new()
        .map_err(|e| e.to_string())?
        .block_on(async move {
            use std::net::ToSocketAddrs;
            let addr = host
                .to_socket_addrs()
                .map_err(|e| format!("--url {host}: {e}"))?
                .next()
                .ok_or_else(|| format!("--url {host}: no address"))?;
            let table: protocol::TableSummary =
                bots::http::get_json(addr, &format!("/api/tables/{}", args.table)).await?;
            let token = match args.token {
                Some(t) => t,
                None => {
                    let name = args
                        .name
                        .unwrap_or_else(|| format!("{}（程序）", level.zh()));
                    let joined: protocol::Joined = bots::http::post_json(
                        addr,
                        &format!("/api/tables/{}/join", args.table),
                        &serde_json::json!({"seat": args.seat, "name": name}),
                    )
                    .await?;
                    joined.token
                }
            };
            let opts = bots::client::BotOptions {
                deadline: Duration::from_secs(args.minutes * 60),
                ..Default::default()
            };
            let kind = Games::standard()
                .get(&table.game)
                .cloned()
                .ok_or_else(|| format!("table {} plays {}: no bot for it", table.id, table.game))?;
            let report = kind.bot(url, token, opts, level).await?;
            println!(
                "paiju bot: table {} seat {:?} at {} ({}): {} actions, last seq {}, {}",
                table.id,
                report.seat,
                level.name(),
                level.zh(),
                report.actions,
                report.last_seq,
                if report.over { "over" } else { "not over" }
            );
            Ok(())
        })
}

/// `paiju arena`: a duplicate match between two levels (or the person-wait and notes checks).
pub fn arena(args: ArenaArgs) -> Result<(), String> {
    use bots::arena::{run, Config as Match};
    if let Some(games) = args.notes {
        let (seats, complete, exact) = bots::arena::gouji::notes_check(games, 1);
        println!(
            "gouji notes, {games} games of mixed beginner and club players: {seats} seats, \
             {complete} complete, {exact} of them replay to exactly the engine's game"
        );
        return Ok(());
    }
    if let Some(games) = args.person {
        print!(
            "{}",
            bots::arena::person_report(games, args.person_plays != "club")
        );
        return Ok(());
    }
    let mut config = Match::new(args.game, args.a, args.b, args.deals, args.seed);
    if args.a_sees_all && args.game != bots::arena::Game::Shengji {
        return Err("--a-sees-all: 80分 only (--game shengji)".into());
    }
    config.a_sees_all = args.a_sees_all;
    if let Some(n) = args.playouts {
        config.budget = bots::Budget::Playouts(n);
    }
    if let Some(ms) = args.time_ms {
        config.budget = bots::Budget::Time(Duration::from_millis(ms));
    }
    if let Some(t) = args.threads {
        config.threads = t.max(1);
    }
    let start = std::time::Instant::now();
    let report = run(&config);
    println!("{report}");
    println!("wall time: {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

#[derive(Args, Debug)]
pub struct LoadArgs {
    /// Tables to play at once.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = count)]
    pub tables: usize,
    /// The game the tables play.
    #[arg(long, default_value = SHENGJI, value_parser = hosted_game)]
    pub game: String,
    /// Mean think time of a bot before each move.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub think_ms: u64,
    /// Each phase (the echo floor, creating the tables, playing) gives up after this long,
    /// with an error that says where it stopped.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 600,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub deadline_s: u64,
    /// Internal: run the bare echo server the load's network floor is measured against, in a
    /// process of its own (its sockets do not count against the generator's open files).
    #[arg(long, hide = true)]
    pub echo_server: bool,
    /// The store of the server it starts: a `postgres://…` URL (its tables stay there). Default:
    /// a fresh SQLite file, deleted after.
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
    /// Past one machine: start this many `paiju serve` nodes on the one `--db postgres://…`
    /// database, the tables spread evenly over them.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = clap::value_parser!(u64).range(1..=16)
    )]
    pub nodes: u64,
    /// Instead of single tables: one 80分 duplicate event of `--tables` tables (two pairs of
    /// people a table, every seat a WebSocket bot client), run round by round as a director and
    /// the pairs would: the scale benchmark of events (docs/tournaments.md).
    #[arg(long, conflicts_with_all = ["game", "db", "nodes", "echo_server"])]
    pub event: bool,
    /// With `--event`: rounds of the movement.
    #[arg(long, value_name = "N", default_value_t = 2, requires = "event", value_parser = clap::value_parser!(u32).range(1..=50))]
    pub rounds: u32,
    /// With `--event`: boards a round.
    #[arg(long, value_name = "N", default_value_t = 2, requires = "event", value_parser = clap::value_parser!(u32).range(1..=10))]
    pub boards_per_round: u32,
    /// Also this many tables of computers alone (every seat the server's bot at
    /// `--computer-level`), opened before the measured tables sit down and playing beside them:
    /// what computer players' thinking costs the people's tables.
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "event")]
    pub computer_tables: usize,
    /// The level of `--computer-tables`: beginner, club or expert.
    #[arg(long, value_name = "LEVEL", default_value = "expert", value_parser = ["beginner", "club", "expert"])]
    pub computer_level: String,
    /// Stop the play after this many seconds and report what was played so far (a 够级 game
    /// is about a thousand actions: a thousand tables of it take a quarter of an hour).
    #[arg(long, value_name = "S", conflicts_with = "event", value_parser = clap::value_parser!(u64).range(1..))]
    pub seconds: Option<u64>,
    /// Generator processes for the bots: 0 (the default) for as many as the open-files limit
    /// needs (each holds a socket a connection), 1 for this process alone.
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "event")]
    pub generators: usize,
    /// Past one machine (--nodes 2 or more): kill the last node with SIGKILL this many seconds
    /// into the play; its tables must be served again by the others, nothing acknowledged lost.
    #[arg(long, value_name = "S", conflicts_with = "event", value_parser = clap::value_parser!(u64).range(1..))]
    pub kill_node_after: Option<u64>,
    /// Measure the floors in turns with the play, this many seconds each, once every seat is
    /// taken: the tables play while the floors wait, then the bots hold their plays while the
    /// floors are measured alone on as many connections, and so on; the report adds the ratio
    /// of the server's CPU per action to the floors' from those turns (docs/performance.md).
    /// One generator process; with --seconds, the tables play about half of it.
    #[arg(long, value_name = "S", conflicts_with_all = ["event", "nodes", "kill_node_after"], value_parser = clap::value_parser!(u64).range(1..=600))]
    pub blocks: Option<u64>,
    /// Internal: a child generator playing its share of a load (the order file the run wrote).
    #[arg(long, value_name = "FILE", hide = true)]
    pub drive: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The SQLite database file, or a `postgres://…` URL.
    #[arg(long, value_name = "FILE|URL", default_value = "paiju.db")]
    pub db: PathBuf,
    /// Only this table (default: every table, then every event).
    #[arg(long, value_name = "ID", conflicts_with = "event")]
    pub table: Option<String>,
    /// Only this event (赛事): its director's log and its seed commitment.
    #[arg(long, value_name = "ID")]
    pub event: Option<String>,
}

#[derive(Args, Debug)]
pub struct MigrateArgs {
    /// The SQLite database file to copy (read only).
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The PostgreSQL database to copy into: a `postgres://…` URL.
    #[arg(long, value_name = "URL")]
    pub to: String,
}

fn lease_seconds(s: &str) -> Result<f64, String> {
    let x = finite(s)?;
    if (1.0..=600.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{x} is out of range: 1 to 600"))
    }
}

fn finite(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number"))?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{s:?} is not a finite number"))
    }
}

fn clock_scale(s: &str) -> Result<f64, String> {
    let x = finite(s)?;
    if x > 0.0 && x <= 100.0 {
        Ok(x)
    } else {
        Err(format!("{x} is out of range: more than 0, at most 100"))
    }
}

fn idle_minutes(s: &str) -> Result<f64, String> {
    let x = finite(s)?;
    if x > 0.0 && x <= 7.0 * 24.0 * 60.0 {
        Ok(x)
    } else {
        Err(format!(
            "{x} is out of range: more than 0, at most 10080 (a week)"
        ))
    }
}

fn per_minute(s: &str) -> Result<f64, String> {
    let x = finite(s)?;
    if (1.0..=1_000_000.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{x} is out of range: 1 to 1000000"))
    }
}

fn count(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=10_000_000).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is out of range: 1 to 10000000")),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}

/// A rough strength estimate: length × log2 of the alphabet the token draws from (hex digits
/// alone count as 16 symbols). Random tokens meet it at 32 characters; words, repeats and short
/// strings do not.
fn token_bits(token: &str) -> f64 {
    let all = |f: fn(&char) -> bool| token.chars().all(|c| f(&c));
    let any = |f: fn(&char) -> bool| token.chars().any(|c| f(&c));
    let pool = if all(char::is_ascii_hexdigit)
        && (all(|c| !c.is_ascii_uppercase()) || all(|c| !c.is_ascii_lowercase()))
    {
        16.0
    } else {
        let mut pool = 0.0;
        if any(char::is_ascii_digit) {
            pool += 10.0;
        }
        if any(char::is_ascii_lowercase) {
            pool += 26.0;
        }
        if any(char::is_ascii_uppercase) {
            pool += 26.0;
        }
        if any(|c| !c.is_ascii_alphanumeric()) {
            pool += 32.0;
        }
        pool
    };
    let mut distinct: Vec<char> = token.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    // A token of few distinct characters draws from no more than those.
    let pool = f64::min(pool, distinct.len() as f64 * 4.0);
    token.chars().count() as f64 * pool.max(1.0).log2()
}

fn referee_token(s: &str) -> Result<RefereeToken, String> {
    role_token(s, "referee")
}

/// The director's token: the referee's rules (and type), its own flag in the message.
fn director_token(s: &str) -> Result<RefereeToken, String> {
    role_token(s, "director")
}

fn role_token(s: &str, role: &str) -> Result<RefereeToken, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(RefereeToken::Off);
    }
    if s == "generate" {
        return Ok(RefereeToken::Generate);
    }
    let chars = s.chars().count();
    let bits = token_bits(s);
    if chars < 32 || bits < 128.0 {
        return Err(format!(
            "too weak: {chars} characters, about {bits:.0} bits; a {role} token needs at least \
             32 random characters (128 bits). Use `--{role}-token generate` for a fresh one, or \
             e.g. `openssl rand -hex 32`"
        ));
    }
    Ok(RefereeToken::Given(s.to_string()))
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

pub fn serve(args: ServeArgs) -> Result<(), String> {
    let mut c = Config {
        listen: args.listen,
        db: args.db,
        advertise: args.advertise,
        lease: Duration::from_secs_f64(args.lease_secs),
        clock_scale: args.clock_scale,
        bot_delay: Duration::from_millis(args.bot_delay_ms),
        expert_think: Duration::from_millis(args.expert_think_ms),
        search_threads: args.search_threads as usize,
        idle_after: Duration::from_secs_f64(args.idle_minutes * 60.0),
        allow_origins: args.allow_origin,
        allow_hosts: args.allow_host,
        practice_daily: args.practice_daily,
        practice_utc_offset_minutes: args.practice_utc_offset,
        ..Config::default()
    };
    c.web = args.web;
    c.limits.max_tables = args.max_tables;
    c.limits.max_connections = args.max_connections;
    c.limits.max_connections_per_ip = args.max_connections_per_ip;
    c.limits.tables_per_minute = args.tables_per_minute;
    c.limits.table_burst = args.table_burst;
    let generated = match args.referee_token {
        None | Some(RefereeToken::Off) => None,
        Some(RefereeToken::Given(t)) => {
            c.referee_token = Some(t);
            None
        }
        Some(RefereeToken::Generate) => {
            let (token, _) = server::seat_token::fresh();
            c.referee_token = Some(token.clone());
            Some(token)
        }
    };
    let director_generated = match args.director_token {
        None | Some(RefereeToken::Off) => None,
        Some(RefereeToken::Given(t)) => {
            c.director_token = Some(t);
            None
        }
        Some(RefereeToken::Generate) => {
            let (token, _) = server::seat_token::fresh();
            c.director_token = Some(token.clone());
            Some(token)
        }
    };
    if c.director_token.is_some() && c.director_token == c.referee_token {
        return Err("--director-token must not be the referee's token".into());
    }
    init_logs(&args.log_format);
    let rt = runtime()?;
    rt.block_on(async move {
        let running = server::start(c.clone(), Games::standard()).await?;
        // Written with `writeln!`, errors ignored: a closed stdout must not stop the server.
        use std::io::Write;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "paiju: open http://{}/", running.addr);
        let _ = writeln!(
            out,
            "paiju: database {}, web client {}, referee role {}, director role {}",
            server::store::postgres::redact(&c.db.to_string_lossy()),
            match &c.web {
                Some(dir) => dir
                    .canonicalize()
                    .unwrap_or_else(|_| dir.clone())
                    .display()
                    .to_string(),
                None => "built in".to_string(),
            },
            if c.referee_token.is_some() {
                "on"
            } else {
                "off"
            },
            if c.director_token.is_some() {
                "on"
            } else {
                "off"
            }
        );
        if let Some(token) = generated {
            // Shown this once: the server keeps only its hash.
            let _ = writeln!(
                out,
                "paiju: referee token (keep it, it is not shown again): {token}"
            );
        }
        if let Some(token) = director_generated {
            let _ = writeln!(
                out,
                "paiju: director token (keep it, it is not shown again): {token}"
            );
            // The director's link: opened once on the director's device, it remembers the token.
            let _ = writeln!(
                out,
                "paiju: director's console: http://{}/director.html#token={token}",
                running.addr
            );
        }
        let _ = out.flush();
        running.until_signal().await;
        let _ = writeln!(out, "paiju: stopped");
        Ok(())
    })
}

/// Every bot of the load connects from 127.0.0.1: lift the per-address limits of the server it
/// starts (bots/src/load.rs passes its own flags; the environment reaches the child too). Set
/// before the runtime starts, while this is the only thread.
fn lift_limits_for_load() {
    std::env::set_var("PAIJU_MAX_CONNECTIONS_PER_IP", "10000000");
    std::env::set_var("PAIJU_TABLES_PER_MINUTE", "1000000");
    std::env::set_var("PAIJU_TABLE_BURST", "1000000");
}

pub fn load(args: LoadArgs) -> Result<(), String> {
    if args.echo_server {
        return runtime()?.block_on(bots::load::serve_echo());
    }
    // What the generator starts as `paiju serve` (and its echo server): this binary, or, for
    // profiling the server (heaptrack, massif), a wrapper that runs it under a tool.
    let exe = match std::env::var_os("PAIJU_LOAD_EXE") {
        Some(wrapper) => std::path::PathBuf::from(wrapper),
        None => std::env::current_exe().map_err(|e| e.to_string())?,
    };
    if args.event {
        let tables = u32::try_from(args.tables)
            .ok()
            .filter(|&t| t <= 500)
            .ok_or("--event: an event has at most 500 tables")?;
        let opts = bots::event_load::EventLoadOptions {
            tables,
            rounds: args.rounds,
            boards_per_round: args.boards_per_round,
            think: Duration::from_millis(args.think_ms),
            exe,
            deadline: Duration::from_secs(args.deadline_s),
        };
        lift_limits_for_load();
        let report = runtime()?.block_on(bots::event_load::run(opts))?;
        println!("{report}");
        return Ok(());
    }
    let games = Games::standard();
    let kind = games
        .get(&args.game)
        .ok_or_else(|| format!("--game: unknown game {:?}", args.game))?
        .clone();
    if let Some(order) = args.drive {
        lift_limits_for_load();
        return runtime()?.block_on(kind.drive(order));
    }
    if args.kill_node_after.is_some() && args.nodes < 2 {
        return Err(
            "--kill-node-after: needs --nodes 2 or more (the others take its tables)".into(),
        );
    }
    let seats = kind.seats();
    let opts = bots::load::LoadOptions {
        tables: args.tables,
        game: args.game,
        seats,
        think: Duration::from_millis(args.think_ms),
        exe,
        deadline: Duration::from_secs(args.deadline_s),
        db: args.db,
        nodes: args.nodes as usize,
        computer_tables: args.computer_tables,
        computer_level: args.computer_level,
        seconds: args.seconds.map(Duration::from_secs),
        generators: args.generators,
        kill_after: args.kill_node_after.map(Duration::from_secs),
        blocks: args.blocks.map(Duration::from_secs),
    };
    lift_limits_for_load();
    let rt = runtime()?;
    let report = rt.block_on(kind.load(opts))?;
    println!("{report}");
    for e in report.errors.iter().take(5) {
        eprintln!("error: {e}");
    }
    Ok(())
}

/// Opens a `--db` value for a tool: a SQLite file must exist already (a typo must not create
/// an empty database that verifies); PostgreSQL is migrated to the current schema.
fn open_store(db: &std::path::Path) -> Result<Box<dyn Store>, String> {
    let name = db.to_string_lossy().to_string();
    if !store::is_postgres_url(&name) && !db.exists() {
        return Err(format!("no database at {}", db.display()));
    }
    store::open(&name, None).map_err(|e| format!("{}: {e}", store::postgres::redact(&name)))
}

pub fn verify(args: VerifyArgs) -> Result<(), String> {
    let mut db = open_store(&args.db)?;
    let ids = match (&args.table, &args.event) {
        (Some(id), _) => vec![id.clone()],
        (None, Some(_)) => Vec::new(),
        (None, None) => db.ids().map_err(|e| e.to_string())?,
    };
    let mut bad = 0;
    for id in ids {
        match db.table(&id).map_err(|e| e.to_string())? {
            None => return Err(format!("no table {id}")),
            Some(t) => match store::verify(&t.header, &t.log) {
                Ok(()) => println!("{id}: ok, {} entries", t.log.len()),
                Err(e) => {
                    bad += 1;
                    println!("{id}: TAMPERED: {e}");
                }
            },
        }
    }
    if args.table.is_none() {
        bad += verify_competitions(&args.db, args.event.as_deref(), &mut *db)?;
    }
    if bad > 0 {
        Err(format!("{bad} table(s) or event(s) failed verification"))
    } else {
        Ok(())
    }
}

/// `paiju verify`, the events: each director's log against its hash chain, and the event's seed
/// (once revealed) against the commitment published at creation. The number that failed.
fn verify_competitions(
    db: &std::path::Path,
    only: Option<&str>,
    tables: &mut dyn Store,
) -> Result<usize, String> {
    let name = db.to_string_lossy().to_string();
    let err = |e: store::StoreError| format!("{}: {e}", store::postgres::redact(&name));
    let mut events = store::open_competitions(&name).map_err(err)?;
    let all = match only {
        Some(id) => vec![events
            .competition(id)
            .map_err(err)?
            .ok_or_else(|| format!("no event {id}"))?],
        None => events.competitions().map_err(err)?,
    };
    let mut bad = 0;
    for e in all {
        let id = &e.header.id;
        match store::verify_competition(&e.header, &e.log) {
            Ok(()) => println!("event {id}: ok, {} entries", e.log.len()),
            Err(t) => {
                bad += 1;
                println!("event {id}: TAMPERED: {t}");
            }
        }
        bad += verify_competition_tables(&e, tables)?;
    }
    Ok(bad)
}

/// `paiju verify`, an event's (or practice set's) tables: every table its log says it opened
/// has an intact chain, was dealt from the event's seed (its commitment is the event's), and
/// deals the board the log says. The number that failed.
fn verify_competition_tables(
    e: &store::StoredCompetition,
    tables: &mut dyn Store,
) -> Result<usize, String> {
    let mut opened: Vec<(String, Option<u64>)> = Vec::new();
    for entry in &e.log {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&entry.action) else {
            continue;
        };
        let Some(table) = v.get("table_id").and_then(|t| t.as_str()) else {
            continue;
        };
        // An 80分 board's or a practice set's table deals the board its entry names.
        let board = (v["type"] == "table_opened")
            .then(|| v.get("board").and_then(|b| b.as_u64()))
            .flatten();
        if !opened.iter().any(|(t, _)| t == table) {
            opened.push((table.to_string(), board));
        }
    }
    let id = &e.header.id;
    let mut bad = 0;
    for (table, board) in opened {
        let what = match tables.table(&table).map_err(|e| e.to_string())? {
            None => Some("its log names a table the store does not have".to_string()),
            Some(t) => match store::verify(&t.header, &t.log) {
                Err(err) => Some(format!("TAMPERED: {err}")),
                Ok(()) if t.header.seed_commitment != e.header.seed_commitment => {
                    Some("not dealt from the event's seed".to_string())
                }
                Ok(()) if board.is_some_and(|b| b != u64::from(t.header.board)) => Some(format!(
                    "deals board {}, the event's log says {}",
                    t.header.board,
                    board.unwrap_or_default()
                )),
                Ok(()) => None,
            },
        };
        if let Some(what) = what {
            bad += 1;
            println!("event {id}: table {table}: {what}");
        }
    }
    if bad == 0 {
        println!("event {id}: its tables ok, each dealt from its seed");
    }
    Ok(bad)
}

/// Copies every table of a SQLite store into PostgreSQL: each chain is checked before it is
/// copied and again as read back. A table already there is completed if its log is a prefix of
/// the source's (an interrupted migration runs again), refused if it differs. Run it while no
/// node serves the target: the tables are copied without leases, and nodes take them after.
pub fn migrate(args: MigrateArgs) -> Result<(), String> {
    if !store::is_postgres_url(&args.to) {
        return Err(format!(
            "--to must be a postgres:// or postgresql:// URL, not {:?}",
            args.to
        ));
    }
    let mut from = open_store(&args.from)?;
    let mut to = open_store(std::path::Path::new(&args.to))?;
    let err = |e: store::StoreError| e.to_string();
    let (mut copied, mut bad) = (0, 0);
    for id in from.ids().map_err(err)? {
        let Some(t) = from.table(&id).map_err(err)? else {
            continue;
        };
        if let Err(e) = store::verify(&t.header, &t.log) {
            bad += 1;
            println!("{id}: TAMPERED in the source, not copied: {e}");
            continue;
        }
        let done = match to.table(&id).map_err(err)? {
            None => {
                let mut bare = t.clone();
                bare.log.clear();
                if !to.create_table(&bare).map_err(err)? {
                    bad += 1;
                    println!("{id}: stored in the target meanwhile: not copied");
                    continue;
                }
                0
            }
            Some(there) if there.header == t.header && t.log.starts_with(&there.log) => {
                there.log.len()
            }
            Some(_) => {
                bad += 1;
                println!("{id}: already in the target, and different: not copied");
                continue;
            }
        };
        let rest: Vec<(String, store::LogEntry)> = t.log[done..]
            .iter()
            .map(|e| (id.clone(), e.clone()))
            .collect();
        for chunk in rest.chunks(1000) {
            to.append(chunk).map_err(err)?;
        }
        for seat in &t.seats {
            to.set_seat(&id, seat).map_err(err)?;
        }
        to.set_state(&id, t.state).map_err(err)?;
        let back = to
            .table(&id)
            .map_err(err)?
            .ok_or_else(|| format!("{id}: not found after copying"))?;
        if back.log != t.log || store::verify(&back.header, &back.log).is_err() {
            bad += 1;
            println!("{id}: the copy does not match its source");
            continue;
        }
        copied += 1;
        println!("{id}: copied, {} entries, chain ok", t.log.len());
    }
    println!("{copied} table(s) copied");
    let (competitions_copied, events_bad) = migrate_competitions(&args)?;
    println!("{competitions_copied} event(s) copied");
    match (bad, events_bad) {
        (0, 0) => Ok(()),
        (t, 0) => Err(format!("{t} table(s) not copied")),
        (0, e) => Err(format!("{e} event(s) not copied")),
        (t, e) => Err(format!("{t} table(s) and {e} event(s) not copied")),
    }
}

/// `paiju migrate`, the events (赛事): each event's chain checked in the source, copied (or
/// finished, when an interrupted run copied part of it), read back and checked again. No node
/// runs a copied event yet: the first node to start takes it. (copied, not copied)
fn migrate_competitions(args: &MigrateArgs) -> Result<(usize, usize), String> {
    use store::CompetitionStore;
    let err = |e: store::StoreError| e.to_string();
    let mut from = store::SqliteStore::open_competitions(&args.from).map_err(err)?;
    let mut to = store::PostgresStore::open(&args.to, None)
        .map_err(|e| format!("{}: {e}", store::postgres::redact(&args.to)))?;
    let (mut copied, mut bad) = (0, 0);
    for e in from.competitions().map_err(err)? {
        let id = e.header.id.clone();
        if let Err(t) = store::verify_competition(&e.header, &e.log) {
            bad += 1;
            println!("event {id}: TAMPERED in the source, not copied: {t}");
            continue;
        }
        let done = match to.competition(&id).map_err(err)? {
            None => match e.log.first() {
                Some(first) => {
                    if !to.create_competition(&e.header, first).map_err(err)? {
                        bad += 1;
                        println!("event {id}: stored in the target meanwhile: not copied");
                        continue;
                    }
                    1
                }
                None => {
                    bad += 1;
                    println!("event {id}: no entries in the source, not copied");
                    continue;
                }
            },
            Some(there) if there.header == e.header && e.log.starts_with(&there.log) => {
                there.log.len()
            }
            Some(_) => {
                bad += 1;
                println!("event {id}: already in the target, and different: not copied");
                continue;
            }
        };
        for entry in &e.log[done..] {
            to.append_competition(&id, entry).map_err(err)?;
        }
        if e.finished {
            to.set_competition_finished(&id).map_err(err)?;
        }
        let back = to
            .competition(&id)
            .map_err(err)?
            .ok_or_else(|| format!("event {id}: not found after copying"))?;
        if back.log != e.log
            || back.finished != e.finished
            || store::verify_competition(&back.header, &back.log).is_err()
        {
            bad += 1;
            println!("event {id}: the copy does not match its source");
            continue;
        }
        copied += 1;
        println!("event {id}: copied, {} entries, chain ok", e.log.len());
    }
    Ok((copied, bad))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn serve_args(flags: &[&str]) -> Result<ServeArgs, String> {
        let argv = ["paiju", "serve"].iter().chain(flags);
        match Cli::try_parse_from(argv)
            .map_err(|e| e.to_string())?
            .command
        {
            Command::Serve(a) => Ok(*a),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_practice_days_offset_and_switch_are_read_or_refused() {
        let a = serve_args(&[]).unwrap();
        let c = Config::default();
        assert_eq!(a.practice_daily, c.practice_daily);
        assert_eq!(a.practice_utc_offset, c.practice_utc_offset_minutes);
        let a =
            serve_args(&["--practice-utc-offset", "-05:30", "--practice-daily", "off"]).unwrap();
        assert_eq!((a.practice_utc_offset, a.practice_daily), (-330, false));
        for bad in ["8", "+8", "+08:60", "+15:00", "08:00", "+-1:00"] {
            let e = serve_args(&["--practice-utc-offset", bad]).unwrap_err();
            assert!(e.contains("not an offset from UTC"), "{bad}: {e}");
        }
        assert!(serve_args(&["--practice-daily", "yes"]).is_err());
    }

    #[test]
    fn defaults_are_the_config_defaults() {
        let a = serve_args(&[]).unwrap();
        let c = Config::default();
        assert_eq!(a.listen, c.listen);
        assert_eq!(a.clock_scale, c.clock_scale);
        assert_eq!(Duration::from_millis(a.bot_delay_ms), c.bot_delay);
        assert_eq!(Duration::from_millis(a.expert_think_ms), c.expert_think);
        assert_eq!(Duration::from_secs_f64(a.idle_minutes * 60.0), c.idle_after);
        assert_eq!(a.max_tables, c.limits.max_tables);
        assert_eq!(Duration::from_secs_f64(a.lease_secs), c.lease);
        assert_eq!(a.advertise, c.advertise);
        let a = serve_args(&["--advertise", "10.0.0.2:8080"]).unwrap();
        assert_eq!(a.advertise.as_deref(), Some("http://10.0.0.2:8080"));
        let a = serve_args(&["--advertise", "https://paiju.example.org/n2/"]).unwrap();
        assert_eq!(a.advertise.as_deref(), Some("https://paiju.example.org/n2"));
        let a = serve_args(&["--allow-origin", "http://a.example,http://b.example"]).unwrap();
        assert_eq!(a.allow_origin, ["http://a.example", "http://b.example"]);
    }

    #[test]
    fn bad_values_are_refused_with_the_flag_named() {
        for (flag, value) in [
            ("--clock-scale", "-1"),
            ("--clock-scale", "NaN"),
            ("--clock-scale", "inf"),
            ("--clock-scale", "0"),
            ("--idle-minutes", "-1"),
            ("--idle-minutes", "NaN"),
            ("--idle-minutes", "1e300"),
            ("--bot-delay-ms", "-5"),
            ("--max-tables", "0"),
            ("--listen", "nowhere"),
            ("--tables-per-minute", "inf"),
            ("--lease-secs", "0"),
            ("--lease-secs", "NaN"),
            ("--advertise", "two words"),
            ("--advertise", ""),
        ] {
            let err = serve_args(&[flag, value]).unwrap_err();
            assert!(err.contains(flag), "{flag} {value}: {err}");
        }
    }

    #[test]
    fn weak_referee_tokens_are_refused() {
        for weak in [
            "referee-secret-for-tests",
            "crash-test-referee",
            &"a".repeat(40),
            &"ab".repeat(20),
            "0123456789abcdef0123456789abcde",
        ] {
            assert!(referee_token(weak).is_err(), "{weak}");
        }
        for strong in [
            "0123456789abcdef0123456789abcdef",
            "7f3a0c51e2d94b8a6c1f0e2d3b4a59687766554433221100ffeeddccbbaa9988",
            "Correct-Horse-Battery-Staple-42-Zebra",
        ] {
            assert_eq!(
                referee_token(strong),
                Ok(RefereeToken::Given(strong.into())),
                "{strong}"
            );
        }
        assert_eq!(referee_token("generate"), Ok(RefereeToken::Generate));
        // The director's token follows the same rules, and says which flag it is.
        assert!(director_token("director-secret")
            .unwrap_err()
            .contains("--director-token generate"));
        assert_eq!(
            director_token("0123456789abcdef0123456789abcdef"),
            Ok(RefereeToken::Given(
                "0123456789abcdef0123456789abcdef".into()
            ))
        );
        assert_eq!(referee_token("  "), Ok(RefereeToken::Off));
    }
}
