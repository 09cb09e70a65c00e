//! 80分 pairs as the server runs them ([`Duplicate`]): the director's steps only they have
//! (adjust a board, deduct, disqualify, rule a pair late), a pair's card and seats, and the wire
//! views — the console's rounds and tables, the pair's page, the seating and table cards, the
//! standings (NS and EW apart) and the printed results.

use protocol::{
    AdjustResult, CompetitionBoard, CompetitionCards, CompetitionRound, CompetitionTable,
    CompetitionView, DeductionIn, DisqualifyIn, ForfeitIn, PairCard, PairInfo, PairRound,
    PairStatus, PlayerCard, Refusal, SeatFault, TableCard,
};
use tournament::competition::duplicate::{declarer_of, Duplicate, DuplicateAction, Pair, Play};
use tournament::competition::{Competition, Error};
use tournament::score::{PairId, ScoreOutput, Standing};
use tournament::Direction;

use super::denied::Denied;
use super::kind::{Ctx, Kind, Place};
use super::standings::{DeductionLine, Line, Rankings, Standings};
use super::{printed, tokens, wire};
use crate::store::CompetitionHeader;

/// The director's steps only 80分 pairs have.
pub enum DuplicateStep {
    Adjust(AdjustResult),
    Deduct(DeductionIn),
    Disqualify(DisqualifyIn),
    Forfeit(ForfeitIn),
}

/// A pair's player, as their token names them: their own seat, never the partner's.
#[derive(Clone, Debug)]
pub struct PairPlayer {
    pub pair: Pair,
    /// 0: North or East; 1: South or West.
    pub which: usize,
}

impl PairPlayer {
    fn seat(&self) -> usize {
        self.pair.seats()[self.which]
    }
}

/// A seat as the players say it: 北 / N …
fn seat_words(seat: usize) -> (String, String) {
    let zh = ["北", "东", "南", "西"][seat % 4];
    let en = ["N", "E", "S", "W"][seat % 4];
    (zh.to_string(), en.to_string())
}

pub fn pair_info(p: &Pair) -> PairInfo {
    PairInfo {
        direction: p.direction.name().to_string(),
        number: p.number,
        names: p.names.clone(),
        organisation: p.organisation.clone(),
        bot: p.bot,
    }
}

fn result_of(play: &Play, board: u32) -> Option<protocol::BoardResult> {
    match (&play.adjusted, &play.played) {
        (Some(a), _) => Some(protocol::BoardResult {
            declarer: a.defenders.map(|_| format!("{:?}", declarer_of(board))),
            defenders: a.defenders,
            artificial: a.artificial.as_ref().map(wire::artificial_pair),
            adjusted: true,
            revised: None,
            auto_moves: Vec::new(),
            timeouts: Vec::new(),
        }),
        (None, Some(p)) => Some(protocol::BoardResult {
            declarer: Some(format!("{:?}", p.declarer)),
            defenders: Some(p.defenders),
            artificial: None,
            adjusted: false,
            revised: play.revised.as_ref().map(wire::revision),
            auto_moves: play.tally.auto_moves.clone(),
            timeouts: play.tally.timeouts.clone(),
        }),
        (None, None) => None,
    }
}

/// One table of one round as the console (and, for its own table, a pair) sees it.
fn table_view(
    d: &Duplicate,
    ctx: &Ctx,
    round: u32,
    table: u32,
    results: bool,
) -> Option<CompetitionTable> {
    let plan = d.table_plan(round, table)?;
    let c = d.confirms.get(&(round, table));
    let seated =
        |direction, number: Option<u32>| number.and_then(|n| d.seated_at(round, direction, n));
    Some(CompetitionTable {
        table,
        ns: plan.ns,
        ew: plan.ew,
        ns_seated_ms: seated(Direction::NS, plan.ns),
        ew_seated_ms: seated(Direction::EW, plan.ew),
        forfeits: [(Direction::NS, plan.ns), (Direction::EW, plan.ew)]
            .into_iter()
            .filter(|(dir, n)| n.is_some_and(|n| d.forfeited(round, *dir, n)))
            .map(|(dir, _)| dir.name().to_string())
            .collect(),
        boards: plan
            .boards
            .iter()
            .map(|&board| {
                let play = d.play(round, table, board);
                let table_id = play.and_then(|p| p.table_id.clone());
                let now = table_id.as_deref().and_then(|t| ctx.table(t));
                CompetitionBoard {
                    board,
                    state: now.map(|n| n.0),
                    seq: now.map(|n| n.1),
                    table_id,
                    result: play.filter(|_| results).and_then(|p| result_of(p, board)),
                    done: play.is_some_and(Play::done),
                    mp: None,
                    top: None,
                }
            })
            .collect(),
        ns_confirmed: d.confirmed(round, table, Direction::NS),
        ew_confirmed: d.confirmed(round, table, Direction::EW),
        dispute: c.and_then(|c| c.dispute.clone()),
    })
}

/// The pair's own match points on each board of its table, and the boards' top (2 × (E − 1),
/// E the results of the most-played board: the top every board's score is factored to).
fn with_match_points(view: &mut CompetitionTable, who: &Pair, out: &ScoreOutput) {
    let most = out
        .boards
        .iter()
        .map(|b| b.results.len())
        .max()
        .unwrap_or(0);
    let top = tournament::matchpoints::top(most).rounded();
    let id = PairId(who.number.to_string());
    for board in &mut view.boards {
        let mine = out
            .boards
            .iter()
            .filter(|b| b.board == board.board)
            .flat_map(|b| &b.results)
            .find_map(|r| match who.direction {
                Direction::NS if r.ns.as_ref() == Some(&id) => r.ns_mp,
                Direction::EW if r.ew.as_ref() == Some(&id) => r.ew_mp,
                _ => None,
            });
        if let Some(mp) = mine {
            board.mp = Some(mp.rounded());
            board.top = Some(top);
        }
    }
}

impl Kind for Duplicate {
    type Game = rules::shengji::Board;
    type Step = DuplicateStep;
    type Holder = PairPlayer;

    fn step(&self, step: DuplicateStep, now_ms: u64) -> Result<DuplicateAction, Denied> {
        Ok(match step {
            DuplicateStep::Adjust(a) => DuplicateAction::Adjust {
                round: a.round,
                table: a.table,
                board: a.board,
                defenders: a.defenders,
                artificial: a
                    .artificial
                    .as_ref()
                    .map(wire::artificial_scores)
                    .transpose()?,
                reason: a.reason,
            },
            DuplicateStep::Deduct(x) => DuplicateAction::Deduction {
                direction: wire::direction(&x.direction)?,
                pair: x.pair,
                // 传递非法信息 is punished on the board: its record takes no match points
                // unless the director says so; any other offence 0.5 (seed 000).
                mp: x.mp.unwrap_or(match x.kind {
                    Some(protocol::DeductionKind::Signalling) => 0.0,
                    None => 0.5,
                }),
                reason: x.reason,
                kind: x.kind,
            },
            DuplicateStep::Disqualify(x) => DuplicateAction::Disqualify {
                direction: wire::direction(&x.direction)?,
                pair: x.pair,
                reason: x.reason,
            },
            DuplicateStep::Forfeit(x) => DuplicateAction::Forfeit {
                round: self.common.playing().ok_or(Error::NoRound)?,
                direction: wire::direction(&x.direction)?,
                pair: x.pair,
                reason: x.reason,
                at_ms: now_ms,
            },
        })
    }

    fn holder(&self, header: &CompetitionHeader, token: &str) -> Option<PairPlayer> {
        if self.common.registered == 0 {
            return None;
        }
        let registered = self.common.registered;
        self.pairs
            .iter()
            .filter(|p| !p.bot)
            .flat_map(|p| (0..2).map(move |which| (p, which)))
            .find(|&(p, which)| {
                let card = tokens::pair_player_token(
                    &header.pair_secret,
                    &header.id,
                    registered,
                    p,
                    which,
                );
                tokens::same(&card, token)
            })
            .map(|(p, which)| PairPlayer {
                pair: p.clone(),
                which,
            })
    }

    fn place(&self, who: &PairPlayer) -> Result<Place, Denied> {
        let s = self.sitting(&who.pair)?;
        let seat = who.seat();
        Ok(Place {
            round: s.round,
            table_no: s.table,
            slot: s.board,
            table_id: s.table_id,
            seats: vec![(seat, who.pair.player(seat))],
        })
    }

    fn not_yours(who: &PairPlayer, _place: &Place, seat: usize) -> Refusal {
        let (zh, en) = seat_words(who.seat());
        Refusal::BadSeat(SeatFault::NotYours {
            seat,
            yours: who.seat(),
            zh,
            en,
        })
    }

    fn seated(
        &self,
        who: &PairPlayer,
        place: &Place,
        seat: usize,
        now_ms: u64,
    ) -> Option<DuplicateAction> {
        let p = &who.pair;
        (!self.has_sat(place.round, p.direction, p.number, seat)).then_some(
            DuplicateAction::Seated {
                round: place.round,
                direction: p.direction,
                pair: p.number,
                seat,
                at_ms: now_ms,
            },
        )
    }

    fn confirm(
        &self,
        who: &PairPlayer,
        agree: bool,
        note: Option<String>,
    ) -> Result<DuplicateAction, Denied> {
        let round = self.common.playing().ok_or(Error::NoRound)?;
        let table = self.table_of(round, &who.pair).ok_or(Error::SitsOut)?.table;
        Ok(DuplicateAction::Confirm {
            round,
            table,
            direction: who.pair.direction,
            agree,
            note,
        })
    }

    fn view(&self, ctx: &Ctx, full: bool) -> CompetitionView {
        let c = &self.common;
        let results = full || c.finished();
        let clock = self.clock(c.round);
        CompetitionView {
            round_started_ms: clock.map(|k| k.started_ms),
            round_deadline_ms: clock.map(|k| k.deadline_ms),
            pairs: self.pairs.iter().map(pair_info).collect(),
            schedule: self
                .movement
                .rounds
                .iter()
                .map(|r| CompetitionRound {
                    round: r.round,
                    state: if r.round <= c.closed {
                        "closed"
                    } else if r.round <= c.round {
                        "playing"
                    } else {
                        "waiting"
                    }
                    .to_string(),
                    tables: r
                        .tables
                        .iter()
                        .filter_map(|t| table_view(self, ctx, r.round, t.table, results))
                        .collect(),
                    bye_stand: r.bye_stand.clone(),
                })
                .collect(),
            conduct: full.then(|| super::kind::conduct(self)),
            warnings: self
                .movement_warnings()
                .iter()
                .map(|w| {
                    let w = w.wire();
                    protocol::Problem {
                        code: w.code,
                        zh: w.zh,
                        en: w.en,
                    }
                })
                .collect(),
            ..ctx.base_view(c, self.rounds())
        }
    }

    /// NS sit N and S (the pair's first player N), EW sit E and W.
    fn sitter(&self, round: u32, table: u32, _slot: u32, seat: usize) -> Option<String> {
        let plan = self.table_plan(round, table)?;
        let (direction, number) = if seat.is_multiple_of(2) {
            (Direction::NS, plan.ns?)
        } else {
            (Direction::EW, plan.ew?)
        };
        let pair = self.pair(direction, number)?;
        let name = pair.names.get(seat / 2).cloned().unwrap_or_default();
        Some(format!("{name}（{}{number}）", direction.zh()))
    }

    fn status(&self, ctx: &Ctx, player: &PairPlayer) -> PairStatus {
        let who = &player.pair;
        let round = self.common.round;
        // Once finished, every board's match points (before, they would tell of other tables).
        let scored = if self.common.finished() {
            self.score(round).ok()
        } else {
            None
        };
        let own = |r: u32| {
            let t = self.table_of(r, who)?;
            let mut view = table_view(self, ctx, r, t.table, true)?;
            if let Some(out) = &scored {
                with_match_points(&mut view, who, out);
            }
            Some(view)
        };
        PairStatus {
            pair: pair_info(who),
            event: ctx.header.id.clone(),
            round,
            table: own(round),
            earlier: (1..round)
                .filter_map(|r| {
                    Some(PairRound {
                        round: r,
                        table: own(r)?,
                    })
                })
                .collect(),
            team: None,
            player: Some(player.which as u32 + 1),
            practice: None,
        }
    }

    fn cards(&self, header: &CompetitionHeader) -> CompetitionCards {
        let registered = self.common.registered;
        CompetitionCards {
            pairs: self
                .pairs
                .iter()
                .map(|p| PairCard {
                    pair: pair_info(p),
                    players: if p.bot {
                        Vec::new()
                    } else {
                        (0..2)
                            .map(|which| PlayerCard {
                                number: which as u32 + 1,
                                name: p.player(p.seats()[which]),
                                qr: format!(
                                    "/api/events/{}/players/{}{}-{}/qr.svg",
                                    header.id,
                                    p.direction.name(),
                                    p.number,
                                    which + 1
                                ),
                                token: tokens::pair_player_token(
                                    &header.pair_secret,
                                    &header.id,
                                    registered,
                                    p,
                                    which,
                                ),
                            })
                            .collect()
                    },
                })
                .collect(),
            tables: (1..=self.tables())
                .filter_map(|t| {
                    tournament::movement_card(&self.movement, t)
                        .ok()
                        .map(|card| TableCard { table: t, card })
                })
                .collect(),
            teams: Vec::new(),
        }
    }

    fn standings(&self, full: bool) -> Result<Standings, Denied> {
        let c = &self.common;
        let full = full || c.finished();
        let upto = if full { c.round } else { c.closed };
        // The competition's own results fail the scoring only if its records disagree.
        let out = self
            .score(upto)
            .map_err(|e| Denied::Server(Refusal::Internal(protocol::Words::explain(&e))))?;
        let lines = |direction: Direction, list: &[Standing]| -> Vec<Line> {
            list.iter()
                .filter_map(|s| {
                    let pair = self.pair(direction, s.pair.0.parse().ok()?)?;
                    Some(Line {
                        pair: pair_info(pair),
                        mp: s.mp,
                        place: s.place,
                        prize: s.prize,
                        deducted: s.deducted,
                        disqualified: s.disqualified,
                    })
                })
                .collect()
        };
        Ok(Standings {
            id: c.id.clone(),
            name: c.spec.name.clone(),
            is_final: c.finished(),
            through_round: upto,
            live: full && c.playing().is_some(),
            ranking: Rankings {
                ns: lines(Direction::NS, &out.ranking.ns),
                ew: lines(Direction::EW, &out.ranking.ew),
            },
            boards: full.then_some(out.boards),
            deductions: full.then(|| {
                self.deductions
                    .iter()
                    .map(|d| DeductionLine {
                        direction: d.direction,
                        pair: d.pair,
                        mp: d.mp,
                        reason: d.reason.clone(),
                    })
                    .collect()
            }),
            gouji: None,
            practice: None,
        })
    }

    fn page(&self, s: &Standings, header: &CompetitionHeader) -> String {
        let body = printed::pairs_body(s, self, &printed::status(s));
        printed::page(s, body, header)
    }
}
