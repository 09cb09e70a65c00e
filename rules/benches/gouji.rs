//! 够级 benchmarks: random full games per second on one core, and legal-action enumeration
//! for a 50-card hand.
//!
//! `cargo bench -p rules --bench gouji` (on mimalloc, the server's allocator)
//!
//! Two random players: `cheap` picks a random move from the engine's own queries (a random rank
//! to lead, the smallest beat or a pass, the smallest sustainable burn or a decline), so the
//! figure is the engine's `apply`; `legal` picks uniformly from `legal_actions` (a view per
//! move, every distinct set enumerated), the path a bot takes.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rules::deal::{deal_gouji, DealStream, GoujiDeal, Seed, Stream};
use rules::gouji::burn::sustain;
use rules::gouji::legal::{beat_shapes, lead_shapes, smallest_beat, smallest_lead};
use rules::gouji::set::{Counts, Shape, ACE, FOUR};
use rules::gouji::{Action, Game, Phase, Ruleset};
use rules::{Engine, Viewer};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn deals(n: u32) -> Vec<GoujiDeal> {
    (1..=n).map(|g| deal_gouji(&Seed([7; 32]), g)).collect()
}

/// A cheap random move for the seat to act.
fn cheap_move(g: &Game, rng: &mut DealStream, scratch: &mut Vec<Shape>) -> (usize, Action) {
    let seat = g.phase().seat().expect("a seat to act");
    let hand = g.hand(seat);
    let c = Counts::of(hand);
    let rule = g.ruleset().two_for_one;
    let play = |s: Shape| Action::Play {
        cards: s.take_from(hand).expect("held"),
    };
    let action = match g.phase() {
        Phase::Lead(_) => {
            if g.joker_required(seat) {
                play(smallest_lead(&c, true).expect("a legal lead"))
            } else {
                // All naturals of a random held rank, else the smallest set.
                let held: Vec<u8> = (FOUR..=ACE).filter(|&r| c.get(r) > 0).collect();
                match held.get(rng.below(held.len().max(1) as u32) as usize) {
                    Some(&r) => play(Shape {
                        base: r,
                        naturals: c.get(r),
                        ..Shape::default()
                    }),
                    None => play(smallest_lead(&c, false).expect("a legal lead")),
                }
            }
        }
        Phase::Respond(_) => {
            let top = g.top().expect("top").shape;
            match (g.may_beat(seat) && rng.below(2) == 0)
                .then(|| smallest_beat(&c, &top, rule))
                .flatten()
            {
                Some(s) => play(s),
                None => Action::Pass,
            }
        }
        Phase::Offer { .. } => {
            scratch.clear();
            beat_shapes(&c, &g.top().expect("top").shape, rule, scratch);
            let keep = g.ruleset().keep_cards;
            match scratch
                .iter()
                .filter(|s| sustain(&c.minus(s), keep).is_ok())
                .min_by_key(|s| s.smallness())
            {
                Some(s) if rng.below(2) == 0 => Action::Burn {
                    cards: s.take_from(hand).expect("held"),
                },
                _ => Action::Decline,
            }
        }
        Phase::Over => unreachable!(),
    };
    (seat.index(), action)
}

fn play_cheap(deal: &GoujiDeal, ruleset: &Ruleset, rng: &mut DealStream) -> usize {
    let mut g = Game::new(deal, ruleset.clone());
    let mut scratch = Vec::new();
    let mut moves = 0;
    while !g.is_over() {
        let (seat, action) = cheap_move(&g, rng, &mut scratch);
        Engine::apply(&mut g, seat, action.taken_by(), action).expect("a legal move");
        moves += 1;
    }
    moves
}

fn play_legal(deal: &GoujiDeal, ruleset: &Ruleset, rng: &mut DealStream) -> usize {
    let mut g = Game::new(deal, ruleset.clone());
    let mut moves = 0;
    while !g.is_over() {
        let seat = g.to_act()[0];
        let legal = g.legal_actions(seat);
        let a = legal[rng.below(legal.len() as u32) as usize].clone();
        Engine::apply(&mut g, seat, a.taken_by(), a).expect("a legal move");
        moves += 1;
    }
    moves
}

fn games(c: &mut Criterion) {
    let deals = deals(64);
    let ruleset = Ruleset::zaozhuang_2017();
    let mut group = c.benchmark_group("gouji_games");
    group.throughput(Throughput::Elements(deals.len() as u64));
    group.sample_size(20);
    group.bench_function("random_cheap_x64", |b| {
        let mut rng = DealStream::new(&Seed([1; 32]), Stream::Gouji, 0);
        b.iter(|| {
            for d in &deals {
                black_box(play_cheap(d, &ruleset, &mut rng));
            }
        })
    });
    group.bench_function("random_legal_x64", |b| {
        let mut rng = DealStream::new(&Seed([2; 32]), Stream::Gouji, 0);
        b.iter(|| {
            for d in &deals {
                black_box(play_legal(d, &ruleset, &mut rng));
            }
        })
    });
    group.finish();
}

fn legal(c: &mut Criterion) {
    let deal = deal_gouji(&Seed([7; 32]), 1);
    let g = Game::new(&deal, Ruleset::zaozhuang_2017());
    let counts = Counts::of(g.hand(rules::gouji::Seat::A1));
    let mut group = c.benchmark_group("gouji_legal_50_cards");
    group.bench_function("lead_shapes", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            out.clear();
            lead_shapes(black_box(&counts), false, &mut out);
            out.len()
        })
    });
    group.bench_function("legal_actions_from_view", |b| {
        b.iter(|| black_box(g.legal_actions(0)).len())
    });
    let view = g.view(Viewer::Seat(0));
    group.bench_function("legal_from_view_only", |b| {
        b.iter(|| <Game as Engine>::legal_from_view(black_box(&view)).len())
    });
    group.finish();
    let n = g.legal_actions(0).len();
    eprintln!("A1's first lead, 50 cards: {n} legal actions");
}

criterion_group!(benches, games, legal);
criterion_main!(benches);
