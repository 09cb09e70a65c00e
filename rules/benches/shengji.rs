//! 80分 engine speed: a follow-legality check on a 25-card hand (beside a reference: the same
//! check by listing every legal follow), legal-play enumeration, and random full boards (bury +
//! every trick, each play checked by `Board::apply`) per second on one core, beside a reference:
//! the same boards with each follow also checked by listing every legal follow. On mimalloc, the
//! server's allocator. Run: `cargo bench -p rules --bench shengji`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rules::Actor;

use rules::cards::{Card, Hand};
use rules::deal::{deal_shengji, Fixed, Seed, ShengjiDeal};
use rules::shengji::{
    build_follow, check_follow, default_bury, legal_follows, lowest_follow, parse_lead, Action,
    Board, Lead, LeadParse, Order, Ruleset, Seat,
};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// xorshift64*: the bench's own cheap randomness.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

fn deals(n: u32) -> Vec<ShengjiDeal> {
    (1..=n)
        .map(|b| deal_shengji(&Seed([7; 32]), b, Fixed::default()))
        .collect()
}

/// A lead of the given shape from `from` in a lane where `to` holds cards, or `None`.
fn find_lead(order: &Order, from: &Hand, to: &Hand, pairs: usize, singles: usize) -> Option<Lead> {
    for lane in 0..5 {
        let lane = rules::shengji::Lane::from_index(lane);
        if !order.lane_faces(lane).iter().any(|&f| to.count(f) > 0) {
            continue;
        }
        let faces = order.lane_faces(lane);
        let pair_faces: Vec<Card> = faces
            .iter()
            .copied()
            .filter(|&f| from.count(f) == 2)
            .collect();
        let single_faces: Vec<Card> = faces
            .iter()
            .copied()
            .filter(|&f| from.count(f) == 1)
            .collect();
        if pair_faces.len() >= pairs && single_faces.len() >= singles {
            let mut cards: Vec<Card> = pair_faces[..pairs].iter().flat_map(|&f| [f, f]).collect();
            cards.extend(&single_faces[..singles]);
            return parse_lead(order, LeadParse::LongestTractors, &cards).ok();
        }
    }
    None
}

/// Positions: (order, lead, follower's 25-card hand, a legal play).
fn positions(pairs: usize, singles: usize) -> Vec<(Order, Lead, Hand, Vec<Card>)> {
    let mut out = Vec::new();
    for d in deals(400) {
        let order = Order::new(d.level, d.trump);
        let from: Hand = d.hands[0].iter().copied().collect();
        let to: Hand = d.hands[1].iter().copied().collect();
        if let Some(lead) = find_lead(&order, &from, &to, pairs, singles) {
            let play = lowest_follow(&order, &lead, &to);
            out.push((order, lead, to, play));
        }
        if out.len() == 64 {
            break;
        }
    }
    assert!(!out.is_empty());
    out
}

fn follow_check(c: &mut Criterion) {
    let mut g = c.benchmark_group("follow_check_25_cards");
    for (name, pairs, singles) in [
        ("single", 0, 1),
        ("pair", 1, 0),
        ("two_pairs", 2, 0),
        ("throw_pair_single", 1, 1),
    ] {
        let ps = positions(pairs, singles);
        let mut i = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                let (order, lead, hand, play) = &ps[i % ps.len()];
                i += 1;
                black_box(check_follow(order, lead, hand, black_box(play)))
            })
        });
        // The reference, in the same run on the same positions: the check done the plain way,
        // every legal follow listed and the play looked up. The ratio between the two does not
        // move with the machine's load, the nanoseconds do.
        assert!(ps.iter().all(|(o, l, h, p)| listed(o, l, h, p)));
        let mut i = 0;
        g.bench_function(format!("{name}_reference"), |b| {
            b.iter(|| {
                let (order, lead, hand, play) = &ps[i % ps.len()];
                i += 1;
                black_box(listed(order, lead, hand, black_box(play)))
            })
        });
    }
    g.finish();
}

fn enumeration(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_follows_25_cards");
    for (name, pairs, singles) in [("single", 0, 1), ("pair", 1, 0), ("two_pairs", 2, 0)] {
        let ps = positions(pairs, singles);
        let mut i = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                let (order, lead, hand, _) = &ps[i % ps.len()];
                i += 1;
                black_box(legal_follows(order, lead, hand, 2000))
            })
        });
    }
    g.finish();
}

/// Plays one board with random plays: leads are random singles or pairs (sometimes a throw of
/// two cards of a suit), follows random legal plays; `Board::apply` checks every one. With
/// `plain_check` each follow is first checked the plain way too, every legal follow listed and
/// the play looked up: the reference. The randomness is seeded from `board` alone, so board k
/// is the same board, play for play, on both paths.
fn play_board(deal: &ShengjiDeal, board_number: u64, plain_check: bool) -> i32 {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ board_number.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut board = Board::new(deal, Ruleset::fujian_2024());
    let d = Seat::from_index(deal.declarer);
    let bury = default_bury(board.order(), board.hand(d));
    board
        .apply(d, Actor::Player, Action::Bury { cards: bury })
        .unwrap();
    while !board.is_over() {
        let seat = board.to_act().unwrap();
        let hand = board.hand(seat);
        let cards = match board.lead() {
            Some(lead) => {
                let play = build_follow(board.order(), lead, hand, &mut |k| rng.below(k));
                if plain_check {
                    assert!(listed(board.order(), lead, hand, &play));
                }
                play
            }
            None => random_lead(board.order(), hand, &mut rng),
        };
        let action = match board.pending_choice() {
            Some(_) => Action::Choose {
                unit: rules::shengji::UnitChoice::Single,
            },
            None => Action::Play { cards },
        };
        board.apply(seat, action.taken_by(), action).unwrap();
    }
    board.result().unwrap()
}

/// A random lead: a random card, as a pair half the time it is held twice, else now and then
/// with another card of its suit (a throw attempt), else alone.
fn random_lead(order: &Order, hand: &Hand, rng: &mut Rng) -> Vec<Card> {
    // A random card: walk the counts to the k-th card.
    let mut k = rng.below(hand.len());
    let c = Card::all()
        .find(|&c| {
            let n = hand.count(c);
            if k < n {
                true
            } else {
                k -= n;
                false
            }
        })
        .unwrap();
    let other = order
        .lane_faces(order.lane(c))
        .iter()
        .copied()
        .find(|&x| x != c && hand.count(x) > 0);
    if hand.count(c) == 2 && rng.below(2) == 0 {
        vec![c, c]
    } else {
        match other {
            Some(x) if rng.below(8) == 0 => vec![c, x], // a throw attempt
            _ => vec![c],
        }
    }
}

/// The follow check the plain way: is the play among every legal follow listed?
fn listed(order: &Order, lead: &Lead, hand: &Hand, play: &[Card]) -> bool {
    let mut sorted = play.to_vec();
    sorted.sort();
    legal_follows(order, lead, hand, usize::MAX)
        .into_iter()
        .any(|mut f| {
            f.sort();
            f == sorted
        })
}

fn boards(c: &mut Criterion) {
    let ds = deals(256);
    // Both paths play the same boards to the same results.
    for (k, d) in ds.iter().enumerate() {
        assert_eq!(
            play_board(d, k as u64, false),
            play_board(d, k as u64, true)
        );
    }
    let mut g = c.benchmark_group("random_board");
    g.throughput(Throughput::Elements(1));
    for (name, plain_check) in [
        ("bury_and_all_tricks", false),
        // The reference, in the same run on the same boards: each follow also checked the plain
        // way. The ratio between the two does not move with the machine's load.
        ("bury_and_all_tricks_reference", true),
    ] {
        let mut k = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                k = (k + 1) % ds.len();
                black_box(play_board(&ds[k], k as u64, plain_check))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, follow_check, enumeration, boards);
criterion_main!(benches);
