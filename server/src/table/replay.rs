//! A table's engine from what is stored: the game its header deals ([`dealt`]) and each logged
//! action applied as it was live ([`apply_stored`]). They are the one way a stored table's game
//! is rebuilt: the actor's start ([`super::spawn`]), 托管's players made from a log, a
//! competition reading a table it no longer serves ([`rebuilt`]) and every referee command start
//! from its header and re-apply its log through them, so they all run the game the table ran.

use protocol::Words;
use rules::{Engine, Explain};

use tournament::competition::{TableReport, Tally};

use super::game::{DealFixed, TableGame};
use crate::store::{self, LogEntry, StoredTable, TableHeader};

/// The game a stored table's header deals, before any action.
#[derive(Clone, Debug)]
pub struct Dealt<G> {
    pub engine: G,
    /// What the director fixed, the table's own clock and its computers' level.
    pub fixed: DealFixed,
    /// What a referee should know about the rules it was dealt under, none of them a fault:
    /// the ruleset's options changed since the table was made (it runs under the recorded
    /// ones), this build has no ruleset of that name, the recorded options do not read.
    pub notes: Vec<Words>,
}

/// Deals the game of a stored header as its table dealt it: the board re-dealt from the seed
/// (the deal algorithm must be this build's) with what the director fixed, under the ruleset
/// options **recorded in the header** (what was enforced then, not what this build's ruleset of
/// that name says now), with the table's own clock (`play_seconds`). Why it cannot, in both
/// languages.
pub fn dealt<G: TableGame>(h: &TableHeader) -> Result<Dealt<G>, Words> {
    if h.deal_algorithm != rules::deal::ALGORITHM {
        return Err(Words::new(
            format!(
                "这张桌的牌用「{}」发出，本程序用「{}」：无法重新发牌",
                h.deal_algorithm,
                rules::deal::ALGORITHM
            ),
            format!(
                "this table was dealt with {:?}; this build deals with {:?} and cannot re-deal it",
                h.deal_algorithm,
                rules::deal::ALGORITHM
            ),
        ));
    }
    let seed = rules::deal::Seed::from_hex(&h.seed).map_err(|e| Words::explain(&e))?;
    let fixed = DealFixed::from_json(&h.fixed)
        .map_err(|e| Words::new(format!("定级定主记录读不懂：{e}"), e))?;
    let (rules, notes) = recorded_rules::<G>(h)?;
    let engine = G::deal(rules, &seed, h.board, &fixed).map_err(|r| r.words())?;
    Ok(Dealt {
        engine,
        fixed,
        notes,
    })
}

/// The rules a header recorded: its options if they read, else this build's ruleset of that
/// name. A difference between the two is a note.
fn recorded_rules<G: TableGame>(h: &TableHeader) -> Result<(G::Rules, Vec<Words>), Words> {
    let recorded: Option<G::Rules> = serde_json::from_str(&h.options).ok();
    let named = G::ruleset(&h.ruleset);
    let mut notes = Vec::new();
    let rules = match (recorded, named) {
        (Some(r), Ok(n)) => {
            if r != n {
                notes.push(Words::new(
                    format!(
                        "规则「{}」的选项自这张桌以来有变化：按记录的选项复盘",
                        h.ruleset
                    ),
                    format!(
                        "the options of ruleset {:?} changed since this table: replayed under the recorded options",
                        h.ruleset
                    ),
                ));
            }
            r
        }
        (Some(r), Err(_)) => {
            notes.push(Words::new(
                format!("本程序没有规则「{}」：按记录的选项复盘", h.ruleset),
                format!(
                    "this build has no ruleset {:?}: replayed under the recorded options",
                    h.ruleset
                ),
            ));
            r
        }
        (None, Ok(n)) => {
            if h.options.trim() != "{}" {
                notes.push(Words::new(
                    "记录的规则选项读不懂：按本程序同名规则复盘",
                    "the recorded options do not read: replayed under this build's ruleset of that name",
                ));
            }
            n
        }
        (None, Err(unknown)) => return Err(unknown.words()),
    };
    Ok((rules, notes))
}

/// One stored entry applied again: its action as the engine reads it, and what it did.
#[derive(Clone, Debug)]
pub struct Applied<G: Engine> {
    pub action: G::Action,
    pub events: Vec<G::Event>,
}

/// Why a stored entry does not apply again.
#[derive(Clone, Debug)]
pub enum EntryFault<E> {
    /// Its action is not an action of this game: what the reader says.
    Unreadable(String),
    /// The engine refuses it: the chain holds, so it was written so, or the rules changed.
    Refused(E),
}

impl<E: Explain> std::fmt::Display for EntryFault<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EntryFault::Unreadable(err) => write!(f, "the action does not read: {err}"),
            EntryFault::Refused(err) => {
                write!(f, "refused on replay: {} [{}]", err.en(), err.code())
            }
        }
    }
}

/// Applies one stored entry to `engine` as it was applied live: with its seat and its actor.
pub fn apply_stored<G: TableGame>(
    engine: &mut G,
    e: &LogEntry,
) -> Result<Applied<G>, EntryFault<G::Error>> {
    let action: G::Action =
        serde_json::from_str(&e.action).map_err(|err| EntryFault::Unreadable(err.to_string()))?;
    let events = engine
        .apply(e.seat, e.actor, action.clone())
        .map_err(EntryFault::Refused)?;
    Ok(Applied { action, events })
}

/// The game a stored table's log made: its chain verified, its header dealt, every entry
/// applied as it was live.
pub fn rebuilt<G: TableGame>(stored: &StoredTable) -> Result<G, String> {
    let h = &stored.header;
    store::verify(h, &stored.log).map_err(|t| format!("table {}: log tampered: {t}", h.id))?;
    let mut game = dealt::<G>(h)
        .map_err(|w| format!("table {}: {}", h.id, w.en))?
        .engine;
    for e in &stored.log {
        apply_stored(&mut game, e).map_err(|f| format!("table {}: entry {}: {f}", h.id, e.seq))?;
    }
    Ok(game)
}

/// The seats' conduct on a board: each seat's timeouts as the engine counted them, and the
/// moves 托管 made for it (`auto_moves`, by seat), trimmed to nothing when all are 0.
pub fn tally<G: TableGame>(engine: &G, auto_moves: Vec<u32>) -> Tally {
    Tally {
        timeouts: (0..engine.seats()).map(|s| engine.timeouts(s)).collect(),
        auto_moves,
    }
    .trimmed()
}

/// The moves 托管 made for each of `seats` in a stored log.
pub fn auto_moves(log: &[LogEntry], seats: usize) -> Vec<u32> {
    let mut n = vec![0; seats];
    for e in log.iter().filter(|e| e.actor == protocol::Actor::Auto) {
        if let Some(k) = n.get_mut(e.seat) {
            *k += 1;
        }
    }
    n
}

/// What a stored table reports to its competition, as [`rebuilt`] leaves it: its result once
/// play is over, with the seats' conduct (no ruling: a table read from its log is one whose
/// result is read once).
pub fn report<G: TableGame>(stored: &StoredTable) -> Result<Option<TableReport>, String> {
    let game = rebuilt::<G>(stored)?;
    Ok(game.result().map(|result| TableReport {
        result,
        ruling: None,
        tally: tally(&game, auto_moves(&stored.log, game.seats())),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::shengji::Board;

    fn header(fixed: &DealFixed, options: &str) -> TableHeader {
        let seed = rules::deal::Seed([7; 32]);
        TableHeader {
            id: "123456".into(),
            game: Board::GAME.into(),
            ruleset: Board::DEFAULT_RULESET.into(),
            options: options.into(),
            deal_algorithm: rules::deal::ALGORITHM.into(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            board: 2,
            fixed: fixed.to_json(),
            created_ms: 0,
        }
    }

    #[test]
    fn a_stored_header_deals_the_game_its_table_ran() {
        let today = Board::options(Board::DEFAULT_RULESET);
        // The table's own clock, and what the director fixed.
        let fixed = DealFixed {
            level: Some("9".into()),
            play_seconds: Some(60),
            ..DealFixed::default()
        };
        let d = dealt::<Board>(&header(&fixed, &today)).unwrap();
        assert_eq!(d.engine.rules().play_seconds, 60);
        assert_eq!(d.engine.order().level().symbol(), "9");
        assert_eq!(d.fixed, fixed);
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        let plain = dealt::<Board>(&header(&DealFixed::default(), &today)).unwrap();
        assert_eq!(
            plain.engine.rules().play_seconds,
            Board::ruleset(Board::DEFAULT_RULESET).unwrap().play_seconds
        );
        // The options recorded, not this build's: a changed ruleset is a note.
        let mut then = Board::ruleset(Board::DEFAULT_RULESET).unwrap();
        then.throw_penalty_per_card += 5;
        let options = serde_json::to_string(&then).unwrap();
        let d = dealt::<Board>(&header(&DealFixed::default(), &options)).unwrap();
        assert_eq!(d.engine.rules(), &then);
        assert!(d.notes[0].en.contains("changed since this table"));
        // 够级's clock too.
        let mut h = header(&DealFixed::default(), "{}");
        h.game = rules::gouji::Game::GAME.into();
        h.ruleset = rules::gouji::Game::DEFAULT_RULESET.into();
        h.options = rules::gouji::Game::options(&h.ruleset);
        h.fixed = DealFixed {
            play_seconds: Some(45),
            ..DealFixed::default()
        }
        .to_json();
        let d = dealt::<rules::gouji::Game>(&h).unwrap();
        assert_eq!(d.engine.ruleset().move_seconds, 45);
        // Another deal algorithm cannot be re-dealt.
        let mut h = header(&DealFixed::default(), &today);
        h.deal_algorithm = "paiju-deal-0".into();
        assert!(dealt::<Board>(&h).unwrap_err().en.contains("paiju-deal-0"));
    }
}
