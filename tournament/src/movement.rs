//! 米切尔移位 (the Mitchell movement) of 计副制 pairs: who sits where with which boards, round by
//! round, and the card that tells each table.
//!
//! Round 1: NS pair n plays EW pair n at table n with board set n (boards `(n−1)·K+1 ..= n·K`,
//! K boards per round). NS pairs stay; after each round the boards go down a table (to n−1, from
//! table 1 to the last) and the EW pairs go up (to n+1, from the last to table 1). At table t in
//! round r: EW pair `t − (r−1)` and board set `t + (r−1)`, counted round the tables.
//!
//! - **Odd** table counts need nothing more ([`Variant::Plain`]): at most one round per table.
//! - **Even**, [`Variant::Skip`]: after half the rounds (round T/2) the EW pairs move up two
//!   tables instead of one, once. At most T − 1 rounds: with boards moving one table a round, a
//!   T-th round would make some EW pair meet a board or an NS pair again (the sum of the T offsets
//!   cannot be 0 modulo an even T) — unless the director plays it as the **revenge round**
//!   ([`Options::revenge`]): the EW pairs meet their first opponents again, on boards neither has
//!   played. A curtailed skip may **skip earlier** ([`Options::skip_after`]): after any round k
//!   from R − T/2 to T/2 (R the rounds played), so that sections of different sizes skip together.
//!   Every board set is played once a round, so a skip Mitchell stopped at any round has played
//!   every board equally often.
//! - **Even**, [`Variant::Relay`] (share and relay, 接力桌): board set T/2 + 1 starts on a bye
//!   stand (a side table without players) between tables T/2 and T/2 + 1; the last table has no
//!   set of its own and shares table 1's. The boards still go down one station a round, through
//!   the bye stand (table T/2 + 1 → bye stand → table T/2) and from tables 1 and T to table T − 1.
//!   Up to T rounds; every set is played T times. Cut short (fewer than T rounds), the sets are
//!   played unequally often: [`plan`] warns ([`Warning::CurtailedRelay`]) and suggests the skip.
//! - **Half table** ([`Movement::with_phantom`]): one pair of a direction is a phantom; whoever
//!   meets it sits that round out (the scoring gives them an average).
//!
//! On the wire `{"rounds":[{"round":1,"tables":[{"table":1,"ns":1,"ew":1,"boards":[1,2]},…]},…]}`;
//! a phantom's place is `null`; in a relay movement each round also has `"bye_stand":[…]`, the
//! boards resting on the bye stand that round (not played), and the last table lists the same
//! boards as table 1.

use serde::{Deserialize, Serialize};

use rules::Explain;

use crate::error::{Error, ErrorWire};
use crate::seat::Direction;

/// How an even number of tables avoids replaying boards; odd counts take [`Variant::Plain`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Odd table counts: the plain Mitchell.
    #[default]
    Plain,
    /// Even: the EW pairs skip a table after half the rounds (`--skip`).
    Skip,
    /// Even: share and relay, with a bye stand (`--relay`).
    Relay,
}

/// A whole movement: every round, every table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub rounds: Vec<Round>,
}

/// One round of a movement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Round {
    /// From 1.
    pub round: u32,
    /// Tables 1..=T in order.
    pub tables: Vec<TableRound>,
    /// Relay movements only: the boards on the bye stand this round, which nobody plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye_stand: Option<Vec<u32>>,
}

/// Who plays what at one table in one round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRound {
    pub table: u32,
    /// The NS pair (its number is its table); `None` where the NS pair is a phantom.
    pub ns: Option<u32>,
    /// The EW pair; `None` where the EW pair is a phantom: the NS pair sits out.
    pub ew: Option<u32>,
    /// The boards played here this round, in order.
    pub boards: Vec<u32>,
}

/// What a movement may do beyond its variant: published Mitchell practice for the skip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Skip only: the round after which the EW pairs skip a table. `None`: after round T/2 (the
    /// usual point). Earlier is allowed in a curtailed skip, after any round from R − T/2 (R the
    /// rounds played) to T/2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_after: Option<u32>,
    /// Skip only: the T-th round may be played, the revenge round, in which the EW pairs meet the
    /// NS pairs they started against once more (on boards new to both). Needs the skip after
    /// round T/2.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub revenge: bool,
}

/// What the director should know about a movement that is allowed but not even: a typed
/// warning with a stable code and words in Chinese and English, for the caller to show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Warning {
    /// A share-and-relay movement of fewer rounds than tables: some board sets are played more
    /// often than others (`fewest` and `most` times), so their tops differ. A curtailed skip
    /// Mitchell plays every board equally often.
    CurtailedRelay {
        tables: u32,
        rounds: u32,
        fewest: u32,
        most: u32,
    },
}

impl Explain for Warning {
    fn code(&self) -> &'static str {
        match self {
            Warning::CurtailedRelay { .. } => "curtailed_relay",
        }
    }

    fn zh(&self) -> String {
        match self {
            Warning::CurtailedRelay {
                tables,
                rounds,
                fewest,
                most,
            } => format!(
                "{tables} 桌接力只打 {rounds} 轮：各副牌打的次数不同（少的 {fewest} 次，多的 {most} 次），顶分不一样。不打满 {tables} 轮时请用跳桌（--skip），每副牌打的次数都相同"
            ),
        }
    }

    fn en(&self) -> String {
        match self {
            Warning::CurtailedRelay {
                tables,
                rounds,
                fewest,
                most,
            } => format!(
                "a {tables}-table share and relay cut to {rounds} rounds plays the boards unequally often ({fewest} to {most} times), so their tops differ: for fewer than {tables} rounds use the skip (--skip), which plays every board equally often"
            ),
        }
    }
}

impl Warning {
    /// `{"code","zh","en"}`, as refusals are shown.
    pub fn wire(&self) -> ErrorWire {
        ErrorWire {
            code: self.code().to_string(),
            zh: self.zh(),
            en: self.en(),
        }
    }
}

/// A movement and what the director should be warned of about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub movement: Movement,
    pub warnings: Vec<Warning>,
}

/// The most rounds a movement of `tables` tables can have before some pair meets an opponent or
/// a board again.
pub fn max_rounds(tables: u32, variant: Variant) -> Result<u32, Error> {
    if tables == 0 {
        return Err(Error::Zero { what: "tables" });
    }
    match (variant, tables.is_multiple_of(2)) {
        (Variant::Plain, false) => Ok(tables),
        (Variant::Plain, true) => Err(Error::EvenNeedsSkipOrRelay { tables }),
        (Variant::Skip, true) => Ok(tables - 1),
        (Variant::Relay, true) => Ok(tables),
        (_, false) => Err(Error::OddTakesPlain { tables }),
    }
}

/// The Mitchell movement of `tables` tables, `rounds` rounds of `boards_per_round` boards, with
/// the usual options (the skip after round T/2, no revenge round) and no warnings: see [`plan`].
pub fn movement(
    tables: u32,
    rounds: u32,
    boards_per_round: u32,
    variant: Variant,
) -> Result<Movement, Error> {
    plan(
        tables,
        rounds,
        boards_per_round,
        variant,
        Options::default(),
    )
    .map(|p| p.movement)
}

/// The Mitchell movement with its [`Options`], and the warnings the director should see (a
/// curtailed relay).
pub fn plan(
    tables: u32,
    rounds: u32,
    boards_per_round: u32,
    variant: Variant,
    options: Options,
) -> Result<Planned, Error> {
    let mut max = max_rounds(tables, variant)?;
    if variant != Variant::Skip && options != Options::default() {
        return Err(Error::SkipOptionsNeedSkip { tables });
    }
    let half = tables / 2;
    if options.revenge {
        max += 1;
    }
    if rounds == 0 {
        return Err(Error::Zero { what: "rounds" });
    }
    if boards_per_round == 0 {
        return Err(Error::Zero {
            what: "boards per round",
        });
    }
    if rounds > max {
        return Err(Error::TooManyRounds {
            tables,
            rounds,
            max,
        });
    }
    // Before the skip the EW pair meets boards 2 apart a round, after it 2 apart shifted by one:
    // the two runs never share a board (parity), and each stays clear of itself while it is at
    // most T/2 rounds long. So the skip may come after round k for R − T/2 ≤ k ≤ T/2; the revenge
    // round (R = T) leaves only k = T/2.
    let skip_after = options.skip_after.unwrap_or(half);
    if variant == Variant::Skip {
        let earliest = rounds.saturating_sub(half).max(1);
        if skip_after < earliest || skip_after > half {
            return Err(Error::BadSkip {
                tables,
                rounds,
                after: skip_after,
                earliest,
                latest: half,
            });
        }
    }
    let t = i64::from(tables);
    // A number counted round the tables, 1..=T.
    let wrap = |x: i64| ((x - 1).rem_euclid(t) + 1) as u32;
    let set = |s: u32| ((s - 1) * boards_per_round + 1..=s * boards_per_round).collect::<Vec<_>>();
    let half = t / 2;
    let skip_after = i64::from(skip_after);
    // Relay: where a table's boards are in the cycle of board stations (table 1 … table T/2, the
    // bye stand, table T/2+1 … table T−1); table T shares table 1's.
    let station = |table: i64| {
        if table <= half {
            table
        } else if table < t {
            table + 1
        } else {
            1
        }
    };
    let rounds = (1..=rounds)
        .map(|r| {
            let moved = i64::from(r) - 1;
            let skip = i64::from(variant == Variant::Skip && moved >= skip_after);
            let tables = (1..=t)
                .map(|table| {
                    let board_set = match variant {
                        Variant::Relay => wrap(station(table) + moved),
                        _ => wrap(table + moved),
                    };
                    TableRound {
                        table: table as u32,
                        ns: Some(table as u32),
                        ew: Some(wrap(table - moved - skip)),
                        boards: set(board_set),
                    }
                })
                .collect();
            let bye_stand = (variant == Variant::Relay).then(|| set(wrap(half + 1 + moved)));
            Round {
                round: r,
                tables,
                bye_stand,
            }
        })
        .collect();
    let movement = Movement { rounds };
    let warnings = unequal_plays(&movement, variant).into_iter().collect();
    Ok(Planned { movement, warnings })
}

/// A relay cut short plays some sets more often than others: the warning, if so.
fn unequal_plays(m: &Movement, variant: Variant) -> Option<Warning> {
    if variant != Variant::Relay {
        return None;
    }
    let mut plays = std::collections::BTreeMap::<u32, u32>::new();
    for t in m.rounds.iter().flat_map(|r| &r.tables) {
        for &b in &t.boards {
            *plays.entry(b).or_default() += 1;
        }
    }
    // Boards only ever on the bye stand were played 0 times.
    for r in &m.rounds {
        for &b in r.bye_stand.iter().flatten() {
            plays.entry(b).or_default();
        }
    }
    let fewest = plays.values().copied().min()?;
    let most = plays.values().copied().max()?;
    (fewest != most).then(|| Warning::CurtailedRelay {
        tables: m.tables(),
        rounds: m.rounds.len() as u32,
        fewest,
        most,
    })
}

impl Movement {
    /// Number of tables.
    pub fn tables(&self) -> u32 {
        self.rounds.first().map_or(0, |r| r.tables.len() as u32)
    }

    /// A half table: pair `pair` of `direction` is a phantom (shown as `null`). Its opponents of
    /// each round sit out; usually the highest number, the half table's missing pair.
    pub fn with_phantom(mut self, direction: Direction, pair: u32) -> Result<Movement, Error> {
        let tables = self.tables();
        if pair == 0 || pair > tables {
            return Err(Error::UnknownPair {
                direction,
                pair: pair.to_string(),
            });
        }
        for t in self.rounds.iter_mut().flat_map(|r| r.tables.iter_mut()) {
            let slot = match direction {
                Direction::NS => &mut t.ns,
                Direction::EW => &mut t.ew,
            };
            if *slot == Some(pair) {
                *slot = None;
            }
        }
        Ok(self)
    }

    /// Where `boards` are in round `round` (tables in order; empty if none holds them).
    fn tables_with(&self, round: usize, boards: &[u32]) -> Vec<u32> {
        self.rounds.get(round).map_or_else(Vec::new, |r| {
            r.tables
                .iter()
                .filter(|t| t.boards == boards)
                .map(|t| t.table)
                .collect()
        })
    }
}

/// The printable movement card (移位卡) for one table: for each round the pairs, the boards, where
/// the EW pair goes next and where the boards go next. Plain text, Chinese with English, in
/// columns that line up in a fixed-width font (a Chinese character counts two columns).
pub fn movement_card(m: &Movement, table: u32) -> Result<String, Error> {
    let tables = m.tables();
    if table == 0 || table > tables {
        return Err(Error::NoSuchTable { table, tables });
    }
    let mut out = format!("第 {table} 桌  Table {table}  米切尔移位 Mitchell movement\n");
    out.push_str("南北对留在本桌不动；东西对和牌每轮按下表移动。\n");
    out.push_str(
        "NS stays at this table; after each round the EW pair and the boards move as shown.\n",
    );
    let i = (table - 1) as usize;
    let shares: Vec<u32> = m
        .rounds
        .first()
        .map(|r| {
            m.tables_with(0, &r.tables[i].boards)
                .into_iter()
                .filter(|&t| t != table)
                .collect()
        })
        .unwrap_or_default();
    if let Some(other) = shares.first() {
        out.push_str(&format!(
            "本桌与第 {other} 桌共用一套牌（接力）。 Shares its boards with table {other} (relay).\n"
        ));
    }
    out.push('\n');
    let widths = [8, 8, 8, 12, 14, 18];
    let row = |cells: [String; 6]| {
        let mut line = String::new();
        for (cell, w) in cells.iter().zip(widths) {
            line.push_str(&pad(cell, w));
        }
        line.trim_end().to_string() + "\n"
    };
    out.push_str(&row([
        "轮次",
        "南北",
        "东西",
        "牌号",
        "东西下轮去",
        "牌传到",
    ]
    .map(String::from)));
    out.push_str(&row([
        "Round",
        "NS",
        "EW",
        "Boards",
        "EW next",
        "Boards next",
    ]
    .map(String::from)));
    for (ri, round) in m.rounds.iter().enumerate() {
        let t = &round.tables[i];
        let last = ri + 1 == m.rounds.len();
        let ew_next = match t.ew {
            _ if last => "—".to_string(),
            None => "—".to_string(),
            Some(ew) => m.rounds[ri + 1]
                .tables
                .iter()
                .find(|n| n.ew == Some(ew))
                .map_or("—".to_string(), |n| n.table.to_string()),
        };
        let boards_next = if last {
            "—".to_string()
        } else {
            let at = m.tables_with(ri + 1, &t.boards);
            match at.first() {
                Some(first) => first.to_string(),
                None if m.rounds[ri + 1].bye_stand.as_deref() == Some(&t.boards[..]) => {
                    "接力桌 bye stand".to_string()
                }
                None => "—".to_string(),
            }
        };
        let who = |p: Option<u32>| p.map_or("轮空 out".to_string(), |p| p.to_string());
        out.push_str(&row([
            round.round.to_string(),
            who(t.ns),
            who(t.ew),
            board_range(&t.boards),
            ew_next,
            boards_next,
        ]));
    }
    Ok(out)
}

/// `5-6` for consecutive boards, `5,7` otherwise.
fn board_range(boards: &[u32]) -> String {
    match boards {
        [] => String::new(),
        [one] => one.to_string(),
        [first, .., last] if (last - first) as usize + 1 == boards.len() => {
            format!("{first}-{last}")
        }
        _ => boards
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// Pads to `width` display columns, a wide (CJK) character counting two.
fn pad(s: &str, width: usize) -> String {
    let cols: usize = s
        .chars()
        .map(|c| {
            if (c as u32) >= 0x1100 && c != '—' {
                2
            } else {
                1
            }
        })
        .sum();
    format!("{s}{}", " ".repeat(width.saturating_sub(cols).max(1)))
}
