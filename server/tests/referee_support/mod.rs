//! Finished games for the referee's tests: engines driven directly by a seeded random player
//! (legal moves, throws that may fail, clock expiries, referee rulings with reasons), each
//! action chained into a log exactly as the table server writes it, stored in SQLite.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use protocol::TableState;
use rules::cards::Card;
use rules::deal::Seed;
use rules::{Actor, Engine, Viewer};
use server::store::{self, LogEntry, SeatRecord, SqliteStore, Store, StoredTable, TableHeader};
use server::{DealFixed, TableGame};

/// xorshift64*: small, seeded, good enough to pick moves.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// A fresh database file in the temp directory.
pub fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("paiju-referee-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("t.db")
}

pub fn seed_of(n: u64) -> Seed {
    let mut b = [0u8; 32];
    for (i, x) in b.iter_mut().enumerate() {
        *x = (n as u8).wrapping_mul(31).wrapping_add(i as u8 * 7);
    }
    Seed(b)
}

/// A table header as the server writes it.
pub fn header<G: TableGame>(id: &str, seed: &Seed, board: u32, fixed: &DealFixed) -> TableHeader {
    TableHeader {
        id: id.into(),
        game: G::GAME.into(),
        ruleset: G::DEFAULT_RULESET.into(),
        options: G::options(G::DEFAULT_RULESET),
        deal_algorithm: rules::deal::ALGORITHM.into(),
        seed: seed.to_hex(),
        seed_commitment: seed.commitment(),
        board,
        fixed: fixed.to_json(),
        created_ms: 1_715_068_800_000 + board as u64 * 1000,
    }
}

/// A log being written: the chain and the clock.
pub struct Chain {
    prev: String,
    pub log: Vec<LogEntry>,
    time: u64,
}

impl Chain {
    pub fn new(h: &TableHeader) -> Chain {
        Chain {
            prev: store::genesis(h),
            log: Vec::new(),
            time: h.created_ms + 2000,
        }
    }

    pub fn push(&mut self, seat: usize, actor: Actor, action: String, reason: Option<String>) {
        self.time += 700 + (self.log.len() as u64 * 37) % 3000;
        let player = actor == Actor::Player;
        let mut e = LogEntry {
            seq: self.log.len() as u64 + 1,
            seat,
            actor,
            client_id: player.then_some(self.log.len() as u64 + 100),
            occupant: player.then(|| format!("{:016x}", seat as u64 * 0x1111_1111)),
            reason,
            action,
            time_ms: self.time,
            hash: String::new(),
        };
        e.hash = store::entry_hash(&self.prev, &e);
        self.prev = e.hash.clone();
        self.log.push(e);
    }
}

/// Applies and logs one action; false if the engine refused it (nothing logged).
pub fn act<G: Engine>(
    engine: &mut G,
    chain: &mut Chain,
    seat: usize,
    actor: Actor,
    action: G::Action,
    reason: Option<&str>,
) -> bool {
    let json = serde_json::to_string(&action).unwrap();
    match engine.apply(seat, actor, action) {
        Ok(_) => {
            chain.push(seat, actor, json, reason.map(str::to_string));
            true
        }
        Err(_) => false,
    }
}

fn mover(rng: &mut Rng) -> Actor {
    *rng.pick(&[Actor::Player, Actor::Player, Actor::Bot, Actor::Auto])
}

/// A random 80分 board played to its end (and sometimes finalised).
pub fn play_shengji(rng: &mut Rng, header: &TableHeader) -> (rules::shengji::Board, Vec<LogEntry>) {
    use rules::shengji::{Action, Board, Phase};
    let seed = Seed::from_hex(&header.seed).unwrap();
    let fixed = DealFixed::from_json(&header.fixed).unwrap();
    let mut b = <Board as TableGame>::start(&header.ruleset, &seed, header.board, &fixed).unwrap();
    let mut chain = Chain::new(header);
    let mut rulings = 0;
    let mut guard = 0;
    while !b.is_over() {
        guard += 1;
        assert!(guard < 5000, "a board ends");
        let seat = Engine::to_act(&b)[0];
        if rng.chance(3) {
            act(
                &mut b,
                &mut chain,
                seat,
                Actor::Clock,
                Action::Timeout,
                None,
            );
            continue;
        }
        if rulings < 2 && rng.chance(1) {
            rulings += 1;
            let who = rng.below(4);
            let points = *rng.pick(&[10, 20, 40]);
            act(
                &mut b,
                &mut chain,
                who,
                Actor::Referee,
                Action::Penalty { points },
                Some("信号：同伴出牌时敲桌子"),
            );
            continue;
        }
        let v = b.view(Viewer::Referee);
        let hand: Vec<Card> = v.hands.as_ref().unwrap()[seat].clone();
        let action = match b.phase() {
            Phase::Bury => {
                let mut h = hand.clone();
                let mut cards = Vec::new();
                for _ in 0..8 {
                    let i = rng.below(h.len());
                    cards.push(h.remove(i));
                }
                Action::Bury { cards }
            }
            Phase::Play if b.lead().is_none() && rng.chance(35) => {
                // A throw: a few cards of one effective suit.
                let lane = b.order().lane(*rng.pick(&hand));
                let mut same: Vec<Card> = hand
                    .iter()
                    .copied()
                    .filter(|&c| b.order().lane(c) == lane)
                    .collect();
                let n = 2 + rng.below(3).min(same.len().saturating_sub(2));
                let mut cards = Vec::new();
                while cards.len() < n && !same.is_empty() {
                    let i = rng.below(same.len());
                    cards.push(same.remove(i));
                }
                Action::Play { cards }
            }
            _ => {
                let legal = Engine::legal_actions(&b, seat);
                rng.pick(&legal).clone()
            }
        };
        let actor = mover(rng);
        if !act(&mut b, &mut chain, seat, actor, action, None) {
            let legal = Engine::legal_actions(&b, seat);
            let a = rng.pick(&legal).clone();
            assert!(act(&mut b, &mut chain, seat, actor, a, None));
        }
    }
    if rng.chance(50) {
        act(
            &mut b,
            &mut chain,
            rng.below(4),
            Actor::Referee,
            Action::Penalty { points: 10 },
            Some("查牌：第 3 轮藏张"),
        );
    }
    if rng.chance(50) {
        act(
            &mut b,
            &mut chain,
            0,
            Actor::Referee,
            Action::Finalize,
            Some("成绩确认"),
        );
    }
    (b, chain.log)
}

/// A random 够级 game played to its end.
pub fn play_gouji(rng: &mut Rng, header: &TableHeader) -> (rules::gouji::Game, Vec<LogEntry>) {
    use rules::gouji::{Action, Game, Offence, Ruling};
    let seed = Seed::from_hex(&header.seed).unwrap();
    let mut g =
        <Game as TableGame>::start(&header.ruleset, &seed, header.board, &DealFixed::default())
            .unwrap();
    let mut chain = Chain::new(header);
    let mut guard = 0;
    let mut rulings = 0;
    while !g.is_over() {
        guard += 1;
        assert!(guard < 20_000, "a game ends");
        let seat = Engine::to_act(&g)[0];
        if rng.chance(2) {
            act(
                &mut g,
                &mut chain,
                seat,
                Actor::Clock,
                Action::Timeout,
                None,
            );
            continue;
        }
        if rulings < 2 && rng.chance(1) {
            rulings += 1;
            let (ruling, points) =
                *rng.pick(&[(Ruling::Warning, None), (Ruling::Deduction, Some(2))]);
            act(
                &mut g,
                &mut chain,
                rng.below(6),
                Actor::Referee,
                Action::Ruling {
                    ruling,
                    offence: Offence::Signals,
                    points,
                },
                Some("用语言暗示同伴"),
            );
            continue;
        }
        let legal = Engine::legal_actions(&g, seat);
        // Prefer playing to passing, so games do not drag; burns when offered, sometimes.
        let plays: Vec<&Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::Play { .. } | Action::Burn { .. }))
            .collect();
        let action = if !plays.is_empty() && rng.chance(60) {
            // Small sets most of the time (the list is smallest first).
            let k = rng.below(plays.len().min(12));
            plays[k].clone()
        } else {
            rng.pick(&legal).clone()
        };
        let actor = mover(rng);
        assert!(
            act(&mut g, &mut chain, seat, actor, action, None),
            "a legal action is accepted"
        );
    }
    (g, chain.log)
}

/// Stores a table and its log.
pub fn store_table(
    db: &Path,
    header: TableHeader,
    seats: Vec<SeatRecord>,
    log: Vec<LogEntry>,
    over: bool,
) {
    let mut s = SqliteStore::open(db).unwrap();
    let id = header.id.clone();
    s.create_table(&StoredTable {
        header,
        state: if over {
            TableState::Over
        } else {
            TableState::Playing
        },
        seats,
        log: Vec::new(),
    })
    .unwrap();
    let entries: Vec<(String, LogEntry)> = log.into_iter().map(|e| (id.clone(), e)).collect();
    s.append(&entries).unwrap();
}

pub fn seats(n: usize) -> Vec<SeatRecord> {
    let names = ["老王", "李阿姨", "张师傅", "陈老师", "刘大姐", "赵工"];
    (0..n)
        .map(|i| SeatRecord {
            seat: i,
            name: (i % 3 != 1).then(|| names[i].to_string()),
            token_hash: (i % 3 != 1).then(|| format!("{:064x}", i)),
            bot: i % 3 == 1,
        })
        .collect()
}

/// What a test database holds: table ids with their final engines.
pub struct Tables {
    pub db: PathBuf,
    pub shengji: Vec<(String, rules::shengji::Board)>,
    pub gouji: Vec<(String, rules::gouji::Game)>,
}

/// The test's directory goes with it.
impl Drop for Tables {
    fn drop(&mut self) {
        if let Some(dir) = self.db.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A database with `s` finished 80分 boards and `g` finished 够级 games.
pub fn finished_tables(name: &str, s: u32, g: u32) -> Tables {
    let db = temp_db(name);
    let mut out = Tables {
        db: db.clone(),
        shengji: Vec::new(),
        gouji: Vec::new(),
    };
    for board in 1..=s {
        let mut rng = Rng::new(1000 + board as u64);
        let fixed = if board % 2 == 0 {
            DealFixed {
                level: Some("7".into()),
                trump: Some("H".into()),
                ..DealFixed::default()
            }
        } else {
            DealFixed::default()
        };
        let id = format!("sj{board}");
        let h = header::<rules::shengji::Board>(&id, &seed_of(board as u64), board, &fixed);
        let (end, log) = play_shengji(&mut rng, &h);
        store_table(&db, h, seats(4), log, true);
        out.shengji.push((id, end));
    }
    for game in 1..=g {
        let mut rng = Rng::new(5000 + game as u64);
        let id = format!("gj{game}");
        let h = header::<rules::gouji::Game>(
            &id,
            &seed_of(50 + game as u64),
            game,
            &DealFixed::default(),
        );
        let (end, log) = play_gouji(&mut rng, &h);
        store_table(&db, h, seats(6), log, true);
        out.gouji.push((id, end));
    }
    out
}

/// Runs the binary; (success, stdout, stderr).
pub fn paiju(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(args)
        .output()
        .expect("run paiju");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
