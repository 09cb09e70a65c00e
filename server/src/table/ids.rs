//! The id caches: what a client was told about each of its recent action ids, so a resent id
//! (after a dropped connection, or a restart: it is rebuilt from the log's tail) is answered
//! again and never applied twice.

use std::collections::VecDeque;

use protocol::Problem;

/// Who sent an action id, for the id caches: the referee, or a seat token's holder
/// ([`crate::store::occupant`]). Keyed by occupancy, not seat: a stranger who takes a seat
/// someone left and reuses an id is not answered with the previous occupant's ack.
pub(super) const REFEREE_KEY: &str = "referee";
/// Accepted and refused ids remembered per table. A resend older than this is still never
/// applied twice: it carries the seq it was decided on, which is then stale.
const ID_CACHE: usize = 256;

/// What a client was told about one of its action ids.
#[derive(Clone, Debug)]
pub(super) enum Told {
    Acked(u64),
    /// Boxed: refusals are rare, and an unboxed `Problem` made every entry five times larger.
    Refused(Box<Problem>),
}

/// Recent action ids by sender, bounded to [`ID_CACHE`] (oldest forgotten first).
///
/// Kept small because every table holds one for its whole life: a sender's key (a 16-character
/// occupant or the referee) is stored once in `keys` and entries refer to it by index, and the
/// entries are one queue searched from the newest (a resend is of a recent id), 16 bytes each
/// (what was told is the acked seq; the rare refusals sit in a side list). A map of cloned keys
/// beside a queue of them kept about 27 KiB for an 80分 board and 90 KiB for a 够级 game; this
/// keeps at most 4 KiB.
#[derive(Default)]
pub(super) struct IdCache {
    /// The distinct senders seen; entries name them by index.
    keys: Vec<String>,
    /// Oldest first; ids are unique per sender.
    told: VecDeque<Remembered>,
    /// What entries marked [`ELSEWHERE`] were told: (sender, id, told).
    elsewhere: Vec<(u32, u64, Told)>,
}

/// One remembered id: its sender (an index into `keys`), and the seq it was acked at, or
/// [`ELSEWHERE`].
#[derive(Clone, Copy)]
struct Remembered {
    id: u64,
    key: u32,
    seq: u32,
}

/// A refusal, or an ack at a seq past `u32` (never in practice): kept in `elsewhere`.
const ELSEWHERE: u32 = u32::MAX;

/// Past this many distinct senders, the ones no entry refers to any more are dropped.
const ID_KEYS: usize = 32;

impl IdCache {
    pub(super) fn get(&self, key: &str, id: u64) -> Option<Told> {
        let k = self.keys.iter().position(|k| k == key)? as u32;
        let e = self.told.iter().rev().find(|e| e.key == k && e.id == id)?;
        if e.seq != ELSEWHERE {
            return Some(Told::Acked(e.seq as u64));
        }
        self.elsewhere
            .iter()
            .find(|(kk, i, _)| *kk == k && *i == id)
            .map(|(_, _, t)| t.clone())
    }

    pub(super) fn remember(&mut self, key: String, id: u64, told: Told) {
        let k = self.key_index(key);
        let seq = match told {
            Told::Acked(seq) => u32::try_from(seq).ok().filter(|s| *s != ELSEWHERE),
            Told::Refused(_) => None,
        };
        self.elsewhere.retain(|(kk, i, _)| !(*kk == k && *i == id));
        let seq = seq.unwrap_or_else(|| {
            self.elsewhere.push((k, id, told));
            ELSEWHERE
        });
        match self
            .told
            .iter_mut()
            .rev()
            .find(|e| e.key == k && e.id == id)
        {
            Some(e) => e.seq = seq,
            None => self.told.push_back(Remembered { id, key: k, seq }),
        }
        while self.told.len() > ID_CACHE {
            if let Some(e) = self.told.pop_front() {
                if e.seq == ELSEWHERE {
                    self.elsewhere
                        .retain(|(kk, i, _)| !(*kk == e.key && *i == e.id));
                }
            }
        }
    }

    fn key_index(&mut self, key: String) -> u32 {
        if let Some(k) = self.keys.iter().position(|k| *k == key) {
            return k as u32;
        }
        if self.keys.len() >= ID_KEYS {
            // Many occupants came and went: renumber the senders that entries still name.
            let mut used: Vec<u32> = self.told.iter().map(|e| e.key).collect();
            used.sort_unstable();
            used.dedup();
            let keys = std::mem::take(&mut self.keys);
            self.keys = used.iter().map(|&k| keys[k as usize].clone()).collect();
            for e in self.told.iter_mut() {
                e.key = used.binary_search(&e.key).expect("a used key") as u32;
            }
            for e in self.elsewhere.iter_mut() {
                e.0 = used.binary_search(&e.0).expect("a used key") as u32;
            }
        }
        self.keys.push(key);
        (self.keys.len() - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_cache_answers_by_sender_and_forgets_the_oldest() {
        let mut ids = IdCache::default();
        ids.remember("a".into(), 1, Told::Acked(10));
        ids.remember("b".into(), 1, Told::Acked(11));
        assert!(matches!(ids.get("a", 1), Some(Told::Acked(10))));
        assert!(matches!(ids.get("b", 1), Some(Told::Acked(11))));
        assert!(ids.get("c", 1).is_none());
        for id in 2..=ID_CACHE as u64 {
            ids.remember("b".into(), id, Told::Acked(id));
        }
        // ("a", 1) was the oldest of ID_CACHE + 1.
        assert!(ids.get("a", 1).is_none());
        assert!(matches!(ids.get("b", 1), Some(Told::Acked(11))));
    }

    #[test]
    fn refusals_are_kept_beside_and_forgotten_with_their_entry() {
        let mut ids = IdCache::default();
        let far = u64::from(u32::MAX) + 5;
        ids.remember(
            "a".into(),
            1,
            Told::Refused(Box::new(
                protocol::Refusal::Stale { decided: 1, now: 2 }.into(),
            )),
        );
        ids.remember("a".into(), 2, Told::Acked(far));
        assert!(matches!(ids.get("a", 1), Some(Told::Refused(_))));
        assert!(matches!(ids.get("a", 2), Some(Told::Acked(s)) if s == far));
        // Told again (a resend decided anew): the newer answer stands.
        ids.remember("a".into(), 1, Told::Acked(3));
        assert!(matches!(ids.get("a", 1), Some(Told::Acked(3))));
        for id in 3..=ID_CACHE as u64 + 2 {
            ids.remember("a".into(), id, Told::Acked(id));
        }
        assert!(ids.get("a", 2).is_none());
        assert!(ids.elsewhere.is_empty());
    }

    #[test]
    fn many_senders_keep_the_ones_still_named() {
        let mut ids = IdCache::default();
        for n in 0..ID_KEYS as u64 * 3 {
            ids.remember(format!("occupant {n}"), n, Told::Acked(n));
        }
        assert!(ids.keys.len() <= ID_CACHE.max(ID_KEYS) + 1);
        for n in 0..ID_KEYS as u64 * 3 {
            assert!(matches!(ids.get(&format!("occupant {n}"), n), Some(Told::Acked(s)) if s == n));
        }
    }
}
