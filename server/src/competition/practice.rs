//! Practice sets (练习牌套, issue 26) as the server runs them ([`Practice`], one type a game): who
//! a personal code names (a player, by the id derived from it), the run a player's first arrival
//! begins at the level they chose, where they sit (South at 80分, A1 at 够级, computers in every
//! other seat), and the wire views — the set's ranking, a player's run board by board with each
//! board's field, the standings by day, the printed ranking.
//!
//! A board's field is shown to a player only once they have played that board: until then the
//! other results (and their replays) would tell them how it lies.

use protocol::{
    CompetitionCards, CompetitionView, PairInfo, PairStatus, PracticeBoardView, PracticeBrief,
    PracticeFieldLine, PracticeLine, PracticeResult, PracticeRunView, PracticeSetView, Refusal,
    SeatFault,
};
use tournament::competition::practice::{
    day_of, Outcome, Practice, PracticeAction, Ranked, Run, Scored, SetGame,
};
use tournament::competition::{Competition, Error};

use super::denied::Denied;
use super::kind::{Ctx, Kind, Place};
use super::standings::{PracticeDay, PracticeStandings, Rankings, Standings};
use super::{printed, tokens};
use crate::referee::words;
use crate::store::CompetitionHeader;
use crate::table::TableGame;

/// A game's practice sets as the server runs them: the table game they deal.
pub trait PracticeGame: SetGame {
    type Table: TableGame;
}

impl PracticeGame for tournament::competition::practice::Shengji {
    type Table = rules::shengji::Board;
}

impl PracticeGame for tournament::competition::practice::Gouji {
    type Table = rules::gouji::Game;
}

/// A practice player, as their personal code names them.
#[derive(Clone, Debug)]
pub struct Player {
    /// The public id derived from the code ([`tokens::player_id`]).
    pub id: String,
}

/// A practice set has no director's steps of its own: it is opened, closed and revealed by the
/// server (or an organiser, through the common steps).
pub enum PracticeStep {}

/// A run's name: the player's, or 「电脑·普通」 for the computers' reference run.
fn run_name(r: &Run) -> String {
    match &r.name {
        Some(n) => n.clone(),
        None => format!(
            "{}{}",
            crate::table::BOT_NAME_PREFIX,
            bots::Level::parse(&r.level).map_or("", bots::Level::zh)
        ),
    }
}

/// A result as shown: 80分's declarer, its side (the player's is N–S) and the defenders'
/// points; 够级's team points. The person's 托管 moves beside it.
fn result_view<G: SetGame>(s: &Scored) -> PracticeResult {
    let auto_moves = s.played.tally.auto_moves_of(G::PERSON);
    match &s.played.outcome {
        Outcome::Board {
            declarer,
            defenders,
        } => PracticeResult {
            declarer: Some(format!("{declarer:?}")),
            declaring: Some(declarer.direction().name().to_string()),
            defenders: Some(*defenders),
            a: None,
            b: None,
            auto_moves,
        },
        Outcome::Game(r) => PracticeResult {
            declarer: None,
            declaring: None,
            defenders: None,
            a: Some(r.a),
            b: Some(r.b),
            auto_moves,
        },
    }
}

/// Percentages shown to two decimals.
fn pct(p: f64) -> f64 {
    (p * 100.0).round() / 100.0
}

fn line(r: &Ranked) -> PracticeLine {
    PracticeLine {
        place: r.place,
        run: r.run.number,
        name: run_name(r.run),
        level: r.run.level.clone(),
        computer: r.run.is_reference(),
        percent: pct(r.percent),
        began_ms: r.run.began_ms,
    }
}

fn offset<G: SetGame>(p: &Practice<G>) -> i32 {
    p.common
        .spec
        .practice
        .as_ref()
        .map_or(0, |t| t.utc_offset_minutes)
}

/// A run board by board: each board's result and field once played (the field only then).
pub fn run_view<G: SetGame>(p: &Practice<G>, set: &str, run: &Run) -> PracticeRunView {
    let score = p.score(run);
    let ranking = p.ranking(None);
    let place = ranking
        .iter()
        .find(|r| r.run.number == run.number)
        .map(|r| r.place);
    let now = run.now();
    let boards = (1..=p.boards())
        .map(|b| {
            let board = run.board(b).cloned().unwrap_or_default();
            let mine = score.boards.iter().find(|(n, _)| *n == b).map(|(_, s)| s);
            let field = match mine {
                Some(_) => p
                    .field(b)
                    .iter()
                    .map(|s| PracticeFieldLine {
                        run: s.run.number,
                        name: run_name(s.run),
                        level: s.run.level.clone(),
                        computer: s.run.is_reference(),
                        mine: s.run.number == run.number,
                        result: result_view::<G>(s),
                        mp: s.mp.rounded(),
                        top: s.top.rounded(),
                        percent: pct(s.percent),
                        table_id: s
                            .run
                            .board(b)
                            .and_then(|x| x.table_id.clone())
                            .unwrap_or_default(),
                    })
                    .collect(),
                None => Vec::new(),
            };
            PracticeBoardView {
                board: b,
                table_id: board.table_id.clone(),
                now: now == Some(b),
                done: board.played.is_some(),
                result: mine.map(result_view::<G>),
                mp: mine.map(|s| s.mp.rounded()),
                top: mine.map(|s| s.top.rounded()),
                percent: mine.map(|s| pct(s.percent)),
                field,
            }
        })
        .collect();
    PracticeRunView {
        set: set.to_string(),
        run: run.number,
        name: run_name(run),
        level: run.level.clone(),
        began_ms: run.began_ms,
        percent: score.percent.map(pct),
        done: run.done(),
        place,
        of: ranking.len() as u32,
        boards,
    }
}

/// Whether `table` dealt a board that `run`'s player has finished (their own tables among
/// them): its replay, every hand, is theirs to see. The run's view names exactly those tables:
/// a board's field is in it only once the board is played.
pub fn may_replay(run: &PracticeRunView, table: &str) -> bool {
    !table.is_empty()
        && run
            .boards
            .iter()
            .filter(|b| b.done)
            .flat_map(|b| &b.field)
            .any(|f| f.table_id == table)
}

impl<G: PracticeGame> Kind for Practice<G> {
    type Game = G::Table;
    type Step = PracticeStep;
    type Holder = Player;

    fn step(&self, step: PracticeStep, _now_ms: u64) -> Result<PracticeAction, Denied> {
        match step {}
    }

    /// Any code names a player (whether one was made with it is the store's to say).
    fn holder(&self, _header: &CompetitionHeader, token: &str) -> Option<Player> {
        (!tokens::normal_token(token).is_empty()).then(|| Player {
            id: tokens::player_id(token),
        })
    }

    /// The first arrival begins the player's run, at the level they chose (普通 when none).
    fn arrive(
        &self,
        who: &Player,
        req: &protocol::CompetitionJoin,
        now_ms: u64,
    ) -> Result<Option<PracticeAction>, Denied> {
        if self.run_of(&who.id).is_some() {
            return Ok(None);
        }
        if !self.open() {
            return Err(Error::PracticeClosed.into());
        }
        let level = match req.level.as_deref() {
            None => "club".to_string(),
            Some(l) => bots::Level::parse(l)
                .map(|l| l.name().to_string())
                .ok_or_else(|| Error::PracticeLevel {
                    level: l.to_string(),
                })?,
        };
        Ok(Some(PracticeAction::Begin {
            run: self.runs.len() as u32 + 1,
            player: Some(who.id.clone()),
            name: req.name.clone(),
            level,
            at_ms: now_ms,
        }))
    }

    fn place(&self, who: &Player) -> Result<Place, Denied> {
        let run = self.run_of(&who.id).ok_or(Error::PracticeNotBegun)?;
        let board = run.now().ok_or(Error::PracticeRunDone)?;
        if !self.open() {
            return Err(Error::PracticeClosed.into());
        }
        let table_id = run
            .board(board)
            .and_then(|b| b.table_id.clone())
            .ok_or(Error::Opening)?;
        Ok(Place {
            round: 1,
            table_no: run.number,
            slot: board,
            table_id,
            seats: vec![(G::PERSON, run_name(run))],
        })
    }

    fn not_yours(_who: &Player, place: &Place, seat: usize) -> Refusal {
        let yours = place.seats[0].0;
        let name = G::Table::seat_zh(yours).unwrap_or("").to_string();
        Refusal::BadSeat(SeatFault::NotYours {
            seat,
            yours,
            zh: name.clone(),
            en: name,
        })
    }

    fn seated(&self, _: &Player, _: &Place, _: usize, _: u64) -> Option<PracticeAction> {
        None
    }

    fn confirm(&self, _: &Player, _: bool, _: Option<String>) -> Result<PracticeAction, Denied> {
        Err(Error::PracticeNoConfirm.into())
    }

    /// The person's seat is the run's player; the others are computers.
    fn sitter(&self, _round: u32, table: u32, _slot: u32, seat: usize) -> Option<String> {
        let run = self.run(table)?;
        Some(if seat == G::PERSON && !run.is_reference() {
            run_name(run)
        } else {
            crate::table::bot_name::<G::Table>(seat)
        })
    }

    fn view(&self, ctx: &Ctx, full: bool) -> CompetitionView {
        let terms = self
            .common
            .spec
            .practice
            .as_deref()
            .cloned()
            .unwrap_or_default();
        let players = self.runs.iter().filter(|r| !r.is_reference());
        CompetitionView {
            practice: Some(PracticeSetView {
                open: self.open(),
                closes_ms: terms.closes_ms,
                club: terms.club,
                references: terms.references,
                utc_offset_minutes: terms.utc_offset_minutes,
                players: players.clone().count() as u32,
                finished: players.filter(|r| r.done()).count() as u32,
                ranking: self.ranking(None).iter().map(line).collect(),
            }),
            conduct: full.then(|| super::kind::conduct(self)),
            ..ctx.base_view(&self.common, self.rounds())
        }
    }

    fn status(&self, ctx: &Ctx, who: &Player) -> PairStatus {
        let run = self.run_of(&who.id);
        PairStatus {
            pair: PairInfo {
                direction: "practice".into(),
                number: run.map_or(0, |r| r.number),
                names: run.map(run_name).into_iter().collect(),
                organisation: None,
                bot: false,
            },
            event: ctx.header.id.clone(),
            round: self.common.round,
            table: None,
            earlier: Vec::new(),
            team: None,
            player: None,
            practice: run.map(|r| run_view(self, &ctx.header.id, r)),
        }
    }

    /// No cards: a player's own code is their card.
    fn cards(&self, _header: &CompetitionHeader) -> CompetitionCards {
        CompetitionCards {
            pairs: Vec::new(),
            tables: Vec::new(),
            teams: Vec::new(),
        }
    }

    /// The ranking of the whole set and of each day a run began on. Anyone sees it: a run's
    /// percentage says nothing of how a board lies.
    fn standings(&self, _full: bool) -> Result<Standings, Denied> {
        let c = &self.common;
        let offset = offset(self);
        let mut days: Vec<i64> = self
            .runs
            .iter()
            .filter(|r| r.done())
            .map(|r| day_of(r.began_ms, offset))
            .collect();
        days.sort_unstable();
        days.dedup();
        Ok(Standings {
            id: c.id.clone(),
            name: c.spec.name.clone(),
            is_final: c.finished(),
            through_round: c.round,
            live: self.open(),
            ranking: Rankings {
                ns: Vec::new(),
                ew: Vec::new(),
            },
            boards: None,
            deductions: None,
            gouji: None,
            practice: Some(PracticeStandings {
                game: G::GAME.to_string(),
                boards: self.boards(),
                club: c.spec.practice.as_ref().and_then(|t| t.club.clone()),
                day: None,
                lines: self.ranking(None).iter().map(line).collect(),
                days: days
                    .into_iter()
                    .map(|d| PracticeDay {
                        day: words::day_date(d),
                        lines: self.ranking(Some(d)).iter().map(line).collect(),
                    })
                    .collect(),
            }),
        })
    }

    fn page(&self, s: &Standings, header: &CompetitionHeader) -> String {
        let body = match &s.practice {
            Some(p) => printed::practice_body(s, p),
            None => String::new(),
        };
        printed::page(s, body, header)
    }

    fn practice_brief(&self, header: &CompetitionHeader) -> Option<PracticeBrief> {
        let terms = self.common.spec.practice.as_ref()?;
        Some(PracticeBrief {
            id: header.id.clone(),
            name: self.common.spec.name.clone(),
            game: G::GAME.to_string(),
            boards: self.boards(),
            closes_ms: terms.closes_ms,
            club: terms.club.clone(),
            open: self.open(),
            players: self.runs.iter().filter(|r| !r.is_reference()).count() as u32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tournament::competition::practice::Shengji;
    use tournament::competition::{Spec, TableReport, TableResult};

    fn set() -> Practice<Shengji> {
        let spec: Spec = serde_json::from_value(serde_json::json!({
            "game": "shengji", "name": "每日练习", "boards_per_round": 2,
            "practice": {"closes_ms": 1, "references": []},
        }))
        .unwrap();
        let mut p = Practice::<Shengji>::create("s", &spec).unwrap();
        p.apply(2, &Practice::<Shengji>::start_round(1, 0)).unwrap();
        p
    }

    fn begin(p: &mut Practice<Shengji>, id: &str) {
        let a = p
            .arrive(
                &Player { id: id.into() },
                &protocol::CompetitionJoin {
                    token: String::new(),
                    seat: None,
                    name: Some(format!("{id}老师")),
                    level: Some("高手".into()),
                },
                5,
            )
            .unwrap()
            .unwrap();
        p.apply(0, &a).unwrap();
    }

    fn finish_board(p: &mut Practice<Shengji>, run: u32, table: &str, defenders: i32) {
        let need = p.tables_now().into_iter().find(|n| n.table == run).unwrap();
        p.apply(0, &Practice::<Shengji>::opened(&need, table.into()))
            .unwrap();
        let report = TableReport::of(TableResult::Board {
            declarer: tournament::Seat::N,
            defenders,
        });
        p.apply(
            0,
            &Practice::<Shengji>::result(&need, table.into(), report).unwrap(),
        )
        .unwrap();
    }

    #[test]
    fn a_board_shows_its_field_and_its_replays_only_to_those_who_played_it() {
        let mut p = set();
        begin(&mut p, "a");
        begin(&mut p, "b");
        assert_eq!(p.run(1).unwrap().level, "expert", "高手 read as expert");
        finish_board(&mut p, 1, "a1", 40);
        // b has not played board 1: a's table is not b's to replay, nor a's result to see.
        let a_view = run_view(&p, "s", p.run(1).unwrap());
        assert!(may_replay(&a_view, "a1"));
        let b_view = run_view(&p, "s", p.run(2).unwrap());
        assert!(!may_replay(&b_view, "a1"));
        assert!(b_view.boards[0].field.is_empty() && b_view.boards[0].result.is_none());
        // b's own table of board 1, still being played, is not to replay either.
        let need = p.tables_now().into_iter().find(|n| n.table == 2).unwrap();
        p.apply(0, &Practice::<Shengji>::opened(&need, "b1".into()))
            .unwrap();
        assert!(!may_replay(&run_view(&p, "s", p.run(2).unwrap()), "b1"));
        assert!(!may_replay(&run_view(&p, "s", p.run(1).unwrap()), "b1"));
        let report = TableReport::of(TableResult::Board {
            declarer: tournament::Seat::N,
            defenders: 80,
        });
        p.apply(
            0,
            &Practice::<Shengji>::result(&need, "b1".into(), report).unwrap(),
        )
        .unwrap();
        let b_view = run_view(&p, "s", p.run(2).unwrap());
        assert!(may_replay(&b_view, "a1") && may_replay(&b_view, "b1"));
        assert!(!may_replay(&b_view, ""));
        let field = &b_view.boards[0].field;
        assert_eq!(field.len(), 2);
        assert!(field[1].mine && !field[0].mine);
        assert_eq!(field[0].table_id, "a1");
        assert_eq!((field[0].mp, field[1].mp), (2.0, 0.0));
        assert_eq!(b_view.boards[0].percent, Some(0.0));
        assert_eq!(b_view.percent, Some(0.0));
        // Board 2 is b's now, not played: no field.
        assert!(b_view.boards[1].now && b_view.boards[1].field.is_empty());
        // A second arrival begins nothing.
        assert!(p
            .arrive(
                &Player { id: "a".into() },
                &protocol::CompetitionJoin {
                    token: String::new(),
                    seat: None,
                    name: None,
                    level: None,
                },
                6,
            )
            .unwrap()
            .is_none());
    }
}
