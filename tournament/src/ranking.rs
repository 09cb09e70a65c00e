//! 名次 (ranking) of a duplicate event: NS and EW apart (双冠军), each by
//!
//! 1. total match points (比赛分之和), deductions included;
//! 2. then the best single board (最高分), then the second best (次高分), and so on.
//!
//! Places follow the national rules (第五届全国智力运动会竞赛规程总则, 六(五)): entries that no
//! tie-break separates share a place and the next place or places stay empty (1, 2, 2, 4);
//! a disqualified entry keeps its results in everyone else's scores but its place is filled by
//! the entries below it (依次递补). Prize places are the organiser's to set per direction (seed
//! 000 二.4: 南北方向和东西方向各取名额由主办方确定, [`rank_with_prizes`]); by default by the size of
//! the field (六(一)): 11 or more entries, the first 8; 8 to 10, the first 6; 6 or 7, the first 3.

use std::cmp::Ordering;

use crate::mp::Mp;

/// One entry to rank: its total and its score on every board it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<Id> {
    pub id: Id,
    /// Total match points after deductions.
    pub total: Mp,
    /// The match points of each board (any order), for the tie-breaks.
    pub boards: Vec<Mp>,
    /// Disqualified (取消比赛资格和成绩): listed last, without a place.
    pub disqualified: bool,
}

/// A ranked entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed<Id> {
    pub id: Id,
    pub total: Mp,
    /// `None` for a disqualified entry.
    pub place: Option<u32>,
    /// Within the prize places of the field.
    pub prize: bool,
    pub disqualified: bool,
}

/// How many places win a prize in a field of `entries` (六(一)): 11 or more, 8; 8–10, 6; 6–7, 3.
/// Fewer than 6: none — 报名参赛单位不足6个的小项将取消设项 (the event becomes a demonstration).
pub fn prize_places(entries: usize) -> u32 {
    match entries {
        11.. => 8,
        8..=10 => 6,
        6..=7 => 3,
        _ => 0,
    }
}

/// The order of two entries: `Greater` if `a` ranks ahead of `b`; `Equal` if no tie-break
/// separates them. Boards beyond the shorter list count as 0.
pub fn compare<Id>(a: &Entry<Id>, b: &Entry<Id>) -> Ordering {
    a.total.cmp(&b.total).then_with(|| {
        let best_first = |e: &Entry<Id>| {
            let mut v = e.boards.clone();
            v.sort_unstable_by(|x, y| y.cmp(x));
            v
        };
        let (x, y) = (best_first(a), best_first(b));
        (0..x.len().max(y.len()))
            .map(|i| {
                let at = |v: &[Mp]| v.get(i).copied().unwrap_or(Mp::ZERO);
                at(&x).cmp(&at(&y))
            })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    })
}

/// Places for a list already in ranking order, where `tied(i)` says entry `i` could not be
/// separated from entry `i − 1`: a tied entry shares the place above it, and the place after a tie
/// skips as many places as were shared (1, 2, 2, 4).
pub fn places(n: usize, tied: impl Fn(usize) -> bool) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(n);
    for i in 0..n {
        let place = match out.last() {
            Some(&above) if tied(i) => above,
            _ => i as u32 + 1,
        };
        out.push(place);
    }
    out
}

/// Ranks `entries`: best first, disqualified entries last (without a place), ties (after every
/// tie-break) in their given order sharing a place; prize places by the size of the field.
pub fn rank<Id: Clone>(entries: &[Entry<Id>]) -> Vec<Placed<Id>> {
    rank_with_prizes(entries, prize_places(entries.len()))
}

/// [`rank`] with the organiser's number of prize places (南北方向和东西方向各取名额由主办方确定):
/// every entry placed within the first `prizes` places has `prize` (a tie on the last prize
/// place shares it).
pub fn rank_with_prizes<Id: Clone>(entries: &[Entry<Id>], prizes: u32) -> Vec<Placed<Id>> {
    let mut order: Vec<&Entry<Id>> = entries.iter().filter(|e| !e.disqualified).collect();
    order.sort_by(|a, b| compare(b, a));
    let placed = places(order.len(), |i| compare(order[i - 1], order[i]).is_eq());
    let mut out: Vec<Placed<Id>> = order
        .iter()
        .zip(placed)
        .map(|(e, place)| Placed {
            id: e.id.clone(),
            total: e.total,
            place: Some(place),
            prize: place <= prizes,
            disqualified: false,
        })
        .collect();
    out.extend(entries.iter().filter(|e| e.disqualified).map(|e| Placed {
        id: e.id.clone(),
        total: e.total,
        place: None,
        prize: false,
        disqualified: true,
    }));
    out
}
