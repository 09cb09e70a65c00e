//! `paiju event score`: the results of a duplicate 80分 session in, board scores and the NS and
//! EW rankings out. One JSON object each way; see docs/tournaments.md for examples.
//!
//! In:
//!
//! ```json
//! {"pairs":{"NS":["1","2"],"EW":["1","2"]},
//!  "results":[{"board":1,"ns":"1","ew":"2","declarer":"N","defenders":85},
//!             {"board":1,"ns":"2","ew":"1","artificial":{"ns":"A+","ew":"A-"}}],
//!  "deductions":[{"direction":"NS","pair":"1","mp":0.5}],
//!  "disqualified":[{"direction":"EW","pair":"2"}]}
//! ```
//!
//! A result is played (`declarer` and `defenders`, optionally `"adjusted":true` for points a
//! referee assigned) or artificial (`artificial`, per side: `A` 50 %, `A+` 60 %, `A-` 40 % of the
//! top). A pair sitting out against a phantom is an artificial result without the missing pair:
//! `{"board":7,"ns":"3","artificial":{"ns":"A"}}`. Pair names are strings (numbers are read as
//! their decimal string). `deductions` (0.5 比赛分 per record unless `mp` says more) and
//! `disqualified` are optional; so is `prizes`, the organiser's prize places per direction
//! (`{"NS":3,"EW":3}`; by default by the size of the field).
//!
//! Out: `{"boards":[{"board":1,"results":[{"ns":"1","ew":"2","defenders":85,"ns_mp":2,
//! "ew_mp":0},…]},…],"ranking":{"NS":[{"pair":"1","mp":3.5,"place":1,"prize":false},…],"EW":[…]}}`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;
use crate::matchpoints::{score_board, Artificial, Outcome};
use crate::mp::Mp;
use crate::ranking::{self, Entry};
use crate::seat::{Direction, Seat};

/// The most defenders' points a board's result may have either way: a board's cards are 200,
/// its kitty at most eight times itself, penalties a few hundred. One bound for every result
/// entered by hand (`paiju event score`) and every result a director adjusts, that catches a
/// typo of 1000 for 100.
pub const MAX_POINTS: i32 = 1000;

/// A pair's name within its direction: a string on the wire; a JSON number is read as its
/// decimal string, so the numbers of a movement can be used as they are.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairId(pub String);

impl fmt::Display for PairId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for PairId {
    fn from(s: &str) -> PairId {
        PairId(s.to_string())
    }
}

impl Serialize for PairId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for PairId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PairId, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = PairId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a pair name: a string, or a whole number")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<PairId, E> {
                Ok(PairId(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<PairId, E> {
                Ok(PairId(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<PairId, E> {
                Ok(PairId(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// The input of `paiju event score`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreInput {
    pub pairs: Pairs,
    pub results: Vec<ResultIn>,
    #[serde(default)]
    pub deductions: Vec<Deduction>,
    #[serde(default)]
    pub disqualified: Vec<PairRef>,
    /// Prize places of each direction as the organiser sets them (南北方向和东西方向各取名额由
    /// 主办方确定, seed 000 二.4); a direction not given (or no `prizes`) takes the national
    /// table by its field's size ([`ranking::prize_places`], seed 003 六(一)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prizes: Option<Prizes>,
}

/// How many places of each direction win a prize: `{"NS":3,"EW":3}`; either may be left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prizes {
    #[serde(default, rename = "NS", skip_serializing_if = "Option::is_none")]
    pub ns: Option<u32>,
    #[serde(default, rename = "EW", skip_serializing_if = "Option::is_none")]
    pub ew: Option<u32>,
}

impl Prizes {
    /// The organiser's number for `direction`, if set.
    pub fn of(&self, direction: Direction) -> Option<u32> {
        match direction {
            Direction::NS => self.ns,
            Direction::EW => self.ew,
        }
    }
}

/// The pairs of each direction, in the order the output lists ties in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pairs {
    #[serde(rename = "NS")]
    pub ns: Vec<PairId>,
    #[serde(rename = "EW")]
    pub ew: Vec<PairId>,
}

/// One table's result on one board, as entered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultIn {
    pub board: u32,
    /// Absent (or `null`) only in an artificial result against a phantom NS pair.
    #[serde(default)]
    pub ns: Option<PairId>,
    /// Absent (or `null`) only in an artificial result against a phantom EW pair.
    #[serde(default)]
    pub ew: Option<PairId>,
    /// The board's declarer seat (定庄): required for a played result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarer: Option<Seat>,
    /// Defenders' points, penalties included (may be below 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defenders: Option<i32>,
    /// Artificial scores per side, instead of `defenders`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artificial: Option<ArtificialScores>,
    /// The defenders' points were assigned by a referee (an adjusted result): scored as played,
    /// marked in the output.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adjusted: bool,
}

/// Artificial scores of the two sides of one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtificialScores {
    #[serde(default, rename = "ns", skip_serializing_if = "Option::is_none")]
    pub ns: Option<Artificial>,
    #[serde(default, rename = "ew", skip_serializing_if = "Option::is_none")]
    pub ew: Option<Artificial>,
}

/// A discipline deduction (礼仪、迟到、牌插错…): 0.5 比赛分 off the pair's total per record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deduction {
    pub direction: Direction,
    pub pair: PairId,
    /// Match points off; 0.5 if absent. A positive multiple of 0.5.
    #[serde(default = "half")]
    pub mp: f64,
    /// What it was for, for the record (not used in the scoring).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn half() -> f64 {
    0.5
}

/// A pair of a direction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairRef {
    pub direction: Direction,
    pub pair: PairId,
}

/// The output of `paiju event score`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreOutput {
    /// Every board, in number order.
    pub boards: Vec<BoardOut>,
    pub ranking: Ranking,
}

/// One board's results and their match points.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardOut {
    pub board: u32,
    /// In the order of the NS pairs in `pairs` (a phantom NS last), then of the EW pairs.
    pub results: Vec<ResultOut>,
}

/// One result and what each side earned on it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultOut {
    pub ns: Option<PairId>,
    pub ew: Option<PairId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defenders: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artificial: Option<ArtificialScores>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub adjusted: bool,
    /// `null` for a phantom.
    pub ns_mp: Option<Mp>,
    pub ew_mp: Option<Mp>,
}

/// The two rankings (双冠军).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranking {
    #[serde(rename = "NS")]
    pub ns: Vec<Standing>,
    #[serde(rename = "EW")]
    pub ew: Vec<Standing>,
}

impl Ranking {
    pub fn of(&self, direction: Direction) -> &[Standing] {
        match direction {
            Direction::NS => &self.ns,
            Direction::EW => &self.ew,
        }
    }
}

/// A pair's line in its direction's ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub pair: PairId,
    /// Total match points after deductions.
    pub mp: Mp,
    /// `null` for a disqualified pair. After a tie that no tie-break separates, the tied pairs
    /// share a place and the next place is empty (1, 2, 2, 4).
    pub place: Option<u32>,
    /// Within the prize places: the organiser's (`prizes`), else those for the size of the
    /// field.
    pub prize: bool,
    /// Match points deducted, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deducted: Option<Mp>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disqualified: bool,
}

/// One result, checked: its pairs as indices into the input's lists, and its outcome.
struct Checked<'a> {
    input: &'a ResultIn,
    ns: Option<usize>,
    ew: Option<usize>,
    outcome: Outcome,
}

/// Pair ids to their index in the input's lists, per direction.
struct Lookup(HashMap<Direction, HashMap<PairId, usize>>);

impl Lookup {
    fn pair(&self, direction: Direction, pair: &PairId) -> Result<usize, Error> {
        self.0[&direction]
            .get(pair)
            .copied()
            .ok_or_else(|| Error::UnknownPair {
                direction,
                pair: pair.0.clone(),
            })
    }

    fn find(&self, direction: Direction, pair: &Option<PairId>) -> Result<Option<usize>, Error> {
        pair.as_ref().map(|p| self.pair(direction, p)).transpose()
    }
}

/// Checks and scores a session: every board, then both rankings.
pub fn score(input: ScoreInput) -> Result<ScoreOutput, Error> {
    let lookup = Lookup(pair_index(&input.pairs)?);
    let (boards, declarers) = check_results(&input, &lookup)?;
    let mut deducted: HashMap<(Direction, usize), Mp> = HashMap::new();
    for d in &input.deductions {
        let p = lookup.pair(d.direction, &d.pair)?;
        let mp = Mp::from_halves_f64(d.mp)
            .filter(|mp| *mp > Mp::ZERO)
            .ok_or_else(|| Error::BadDeduction {
                direction: d.direction,
                pair: d.pair.0.clone(),
                mp: d.mp,
            })?;
        let total = deducted.entry((d.direction, p)).or_insert(Mp::ZERO);
        *total = *total + mp;
    }
    let mut disqualified: HashSet<(Direction, usize)> = HashSet::new();
    for q in &input.disqualified {
        disqualified.insert((q.direction, lookup.pair(q.direction, &q.pair)?));
    }
    let (boards_out, per_pair) = score_boards(boards, &declarers);
    let rank = |direction: Direction| -> Vec<Standing> {
        let pairs = input.pairs_of(direction);
        let entries: Vec<Entry<usize>> = (0..pairs.len())
            .map(|p| {
                let boards = per_pair.get(&(direction, p)).cloned().unwrap_or_default();
                let off = deducted.get(&(direction, p)).copied().unwrap_or(Mp::ZERO);
                Entry {
                    id: p,
                    total: boards.iter().copied().sum::<Mp>() - off,
                    boards,
                    disqualified: disqualified.contains(&(direction, p)),
                }
            })
            .collect();
        let prizes = input
            .prizes
            .and_then(|p| p.of(direction))
            .unwrap_or_else(|| ranking::prize_places(entries.len()));
        ranking::rank_with_prizes(&entries, prizes)
            .into_iter()
            .map(|placed| Standing {
                pair: pairs[placed.id].clone(),
                mp: placed.total,
                place: placed.place,
                prize: placed.prize,
                deducted: deducted.get(&(direction, placed.id)).copied(),
                disqualified: placed.disqualified,
            })
            .collect()
    };
    Ok(ScoreOutput {
        boards: boards_out,
        ranking: Ranking {
            ns: rank(Direction::NS),
            ew: rank(Direction::EW),
        },
    })
}

/// Every result checked (its pairs known, one outcome, 定庄 one declarer a board, no meeting
/// or pair twice on a board) and gathered per board, with each board's declarer seat.
#[allow(clippy::type_complexity)]
fn check_results<'a>(
    input: &'a ScoreInput,
    lookup: &Lookup,
) -> Result<(BTreeMap<u32, Vec<Checked<'a>>>, HashMap<u32, Seat>), Error> {
    let mut boards: BTreeMap<u32, Vec<Checked>> = BTreeMap::new();
    let mut declarers: HashMap<u32, Seat> = HashMap::new();
    let mut meetings: HashSet<(u32, usize, usize)> = HashSet::new();
    let mut seen: HashSet<(u32, Direction, usize)> = HashSet::new();
    for r in &input.results {
        let board = r.board;
        if board == 0 {
            return Err(Error::BadBoard { board });
        }
        let ns = lookup.find(Direction::NS, &r.ns)?;
        let ew = lookup.find(Direction::EW, &r.ew)?;
        let outcome = outcome_of(r, ns, ew)?;
        if let Some(seat) = r.declarer {
            let first = *declarers.entry(board).or_insert(seat);
            if first != seat {
                return Err(Error::DeclarerMismatch {
                    board,
                    first,
                    second: seat,
                });
            }
        }
        if let (Some(n), Some(e)) = (ns, ew) {
            if !meetings.insert((board, n, e)) {
                return Err(Error::PlayedTwice {
                    board,
                    ns: input.pairs.ns[n].0.clone(),
                    ew: input.pairs.ew[e].0.clone(),
                });
            }
        }
        for (direction, pair) in [(Direction::NS, ns), (Direction::EW, ew)] {
            if let Some(p) = pair {
                if !seen.insert((board, direction, p)) {
                    return Err(Error::PairPlayedBoardTwice {
                        board,
                        direction,
                        pair: input.pairs_of(direction)[p].0.clone(),
                    });
                }
            }
        }
        boards.entry(board).or_default().push(Checked {
            input: r,
            ns,
            ew,
            outcome,
        });
    }
    Ok((boards, declarers))
}

/// One result's outcome, checked: a played result has both pairs, its declarer and points in
/// fives; an artificial one a score for each side that has a pair and none for a phantom.
fn outcome_of(r: &ResultIn, ns: Option<usize>, ew: Option<usize>) -> Result<Outcome, Error> {
    let board = r.board;
    match (r.defenders, r.artificial) {
        (Some(_), Some(_)) => Err(Error::TwoOutcomes { board }),
        (None, None) => Err(Error::NoOutcome { board }),
        (Some(defenders), None) => {
            for (direction, pair) in [(Direction::NS, ns), (Direction::EW, ew)] {
                if pair.is_none() {
                    return Err(Error::MissingPair { board, direction });
                }
            }
            if r.declarer.is_none() {
                return Err(Error::MissingDeclarer { board });
            }
            // The range first, then the fives: 2000 is a typo however it divides.
            if defenders.abs() > MAX_POINTS {
                return Err(Error::PointsOutOfRange {
                    board,
                    defenders,
                    max: MAX_POINTS,
                });
            }
            if defenders % 5 != 0 {
                return Err(Error::BadPoints { board, defenders });
            }
            Ok(Outcome::Played { defenders })
        }
        (None, Some(a)) => {
            if ns.is_none() && ew.is_none() {
                return Err(Error::MissingPair {
                    board,
                    direction: Direction::NS,
                });
            }
            for (direction, pair, given) in [(Direction::NS, ns, a.ns), (Direction::EW, ew, a.ew)] {
                if pair.is_some() != given.is_some() {
                    return Err(Error::ArtificialSide {
                        board,
                        direction,
                        given: given.is_some(),
                    });
                }
            }
            Ok(Outcome::Artificial { ns: a.ns, ew: a.ew })
        }
    }
}

/// Every board scored across its tables (E: the number of results of the most-played board),
/// and each pair's match points board by board.
#[allow(clippy::type_complexity)]
fn score_boards(
    boards: BTreeMap<u32, Vec<Checked>>,
    declarers: &HashMap<u32, Seat>,
) -> (Vec<BoardOut>, HashMap<(Direction, usize), Vec<Mp>>) {
    let expected = boards.values().map(Vec::len).max().unwrap_or(0);
    let mut per_pair: HashMap<(Direction, usize), Vec<Mp>> = HashMap::new();
    let mut boards_out = Vec::with_capacity(boards.len());
    for (board, mut results) in boards {
        results.sort_by_key(|c| (c.ns.unwrap_or(usize::MAX), c.ew.unwrap_or(usize::MAX)));
        let declarer = declarers
            .get(&board)
            .map_or(Direction::NS, |s| s.direction());
        let outcomes: Vec<Outcome> = results.iter().map(|c| c.outcome).collect();
        let scores = score_board(declarer, &outcomes, expected);
        let mut out = Vec::with_capacity(results.len());
        for (c, s) in results.iter().zip(scores) {
            for (direction, pair, mp) in [(Direction::NS, c.ns, s.ns), (Direction::EW, c.ew, s.ew)]
            {
                if let (Some(p), Some(mp)) = (pair, mp) {
                    per_pair.entry((direction, p)).or_default().push(mp);
                }
            }
            out.push(ResultOut {
                ns: c.input.ns.clone(),
                ew: c.input.ew.clone(),
                defenders: c.input.defenders,
                artificial: c.input.artificial,
                adjusted: c.input.adjusted,
                ns_mp: s.ns,
                ew_mp: s.ew,
            });
        }
        boards_out.push(BoardOut {
            board,
            results: out,
        });
    }
    (boards_out, per_pair)
}

impl ScoreInput {
    fn pairs_of(&self, direction: Direction) -> &[PairId] {
        match direction {
            Direction::NS => &self.pairs.ns,
            Direction::EW => &self.pairs.ew,
        }
    }
}

/// Pair name → position, per direction; a name listed twice is refused.
fn pair_index(pairs: &Pairs) -> Result<HashMap<Direction, HashMap<PairId, usize>>, Error> {
    let mut index = HashMap::new();
    for (direction, list) in [(Direction::NS, &pairs.ns), (Direction::EW, &pairs.ew)] {
        let mut map = HashMap::new();
        for (i, p) in list.iter().enumerate() {
            if map.insert(p.clone(), i).is_some() {
                return Err(Error::DuplicatePair {
                    direction,
                    pair: p.0.clone(),
                });
            }
        }
        index.insert(direction, map);
    }
    Ok(index)
}
