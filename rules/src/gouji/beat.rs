//! 管牌 (beating a set), 大花两打一 and 小花不能两打一.
//!
//! 1. Same number of cards.
//! 2. Normalise: 2s count as the set's base rank; jokers count as 小王 or 大王.
//! 3. Sorted high to low, every card of the new set must be strictly higher than the card in the
//!    same position of the old one. Equal never beats.
//! 4. 大花两打一: if the old set holds b big jokers, a new set with at least 2b big jokers and
//!    exactly b more cards beats it when its remainder (2b big jokers taken out) beats the old
//!    remainder (its b big jokers taken out) by rule 3. 小花不能两打一: small jokers are beaten
//!    only by big jokers, one for one.
//!
//! On shapes, rule 3 reduces to: no big joker in the old set (nothing is higher), at least as
//! many big jokers in the new set as small jokers in the old, and a new base above the old one
//! if the new set has any base cards (its jokers beat any base card anyway).

use super::ruleset::TwoForOne;
use super::set::Shape;

/// Why a set does not beat another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeatError {
    /// 张数必须相同 (or, against big jokers, exactly one more card per big joker).
    CountMismatch,
    /// 每张牌都必须更大.
    NotHigher,
    /// 小花不能两打一: a small joker is beaten only by a big joker.
    SmallJokerTwoForOne,
    /// 大花两打一: a big joker is beaten only by two big jokers.
    BigJokerNeedsTwo,
}

/// Rule 3 on shapes: same length, every position strictly higher.
fn higher_everywhere(new: &Shape, old: &Shape) -> bool {
    new.len() == old.len()
        && old.big == 0
        && new.big >= old.small
        && (new.base_count() == 0 || new.base > old.base)
}

/// Whether 大花两打一 may apply to `old` at all under `rule`.
pub fn two_for_one_applies(old: &Shape, rule: TwoForOne) -> bool {
    match rule {
        TwoForOne::AnySet => old.big > 0,
        TwoForOne::LoneBigJoker => old.big == 1 && old.len() == 1,
    }
}

/// Does `new` beat `old`? The bare comparison: who may play it (对头, 级牌, burning) is the
/// trick's business.
pub fn beats(new: &Shape, old: &Shape, rule: TwoForOne) -> Result<(), BeatError> {
    let (n, o) = (new.len(), old.len());
    if n == o {
        if higher_everywhere(new, old) {
            return Ok(());
        }
        return Err(if old.big > 0 {
            BeatError::BigJokerNeedsTwo
        } else {
            BeatError::NotHigher
        });
    }
    let b = old.big;
    if b > 0 && n == o + b as usize && two_for_one_applies(old, rule) {
        if new.big < 2 * b {
            return Err(BeatError::BigJokerNeedsTwo);
        }
        return if higher_everywhere(&new.without_big(2 * b), &old.without_big(b)) {
            Ok(())
        } else {
            Err(BeatError::NotHigher)
        };
    }
    if b == 0 && old.small > 0 && n > o && n <= o + old.small as usize {
        return Err(BeatError::SmallJokerTwoForOne);
    }
    Err(BeatError::CountMismatch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_list;
    use crate::gouji::set::shape_of;

    fn check(new: &str, old: &str) -> Result<(), BeatError> {
        let s = |x: &str| shape_of(&parse_list(x).unwrap()).unwrap();
        beats(&s(new), &s(old), TwoForOne::AnySet)
    }

    #[test]
    fn the_basic_cases() {
        assert_eq!(check("S8 H8", "S7 H7"), Ok(()));
        assert_eq!(check("S7 H7", "S7 H7"), Err(BeatError::NotHigher));
        assert_eq!(check("S8", "S7 H7"), Err(BeatError::CountMismatch));
        assert_eq!(check("RJ RJ", "RJ"), Ok(()));
        assert_eq!(check("RJ", "RJ"), Err(BeatError::BigJokerNeedsTwo));
        assert_eq!(check("RJ RJ", "BJ"), Err(BeatError::SmallJokerTwoForOne));
    }
}
