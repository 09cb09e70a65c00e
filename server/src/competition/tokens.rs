//! The tokens printed on a competition's cards (a pair's, a 够级 team's): 12 symbols of a
//! 31-letter alphabet without look-alikes (about 59 bits; guessing is also throttled per
//! address), written `xxxx-xxxx-xxxx`, derived from the competition's secret so that the server
//! stores none and the director can reprint a card at any time. A card's token gives each seat
//! of each of its tables a seat token of its own, the same each time it is asked.

use sha2::{Digest, Sha256};
use tournament::competition::duplicate::Pair;

use crate::seat_token;

/// The symbols: no look-alikes (no 0/o, 1/l/i), as table codes.
const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
/// Symbols in a token.
const LEN: usize = 12;

/// The token of `tag` (what it is for, e.g. `paiju-pair-1`), the competition's secret, the
/// competition, and `tail` (the registration and the entry).
fn printed(tag: &str, secret: &str, competition: &str, tail: &str) -> String {
    let digest = Sha256::new()
        .chain_update(tag.as_bytes())
        .chain_update(b"\x1f")
        .chain_update(secret.as_bytes())
        .chain_update(b"\x1f")
        .chain_update(competition.as_bytes())
        .chain_update(b"\x1f")
        .chain_update(tail.as_bytes())
        .finalize();
    let plain: String = digest
        .iter()
        .take(LEN)
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect();
    format!("{}-{}-{}", &plain[0..4], &plain[4..8], &plain[8..12])
}

/// A pair's token: from the secret, the registration and the pair, so a re-registration makes
/// new ones.
pub fn pair_token(secret: &str, competition: &str, registered: u64, pair: &Pair) -> String {
    printed(
        "paiju-pair-1",
        secret,
        competition,
        &format!(
            "{registered}\x1f{}\x1f{}",
            pair.direction.name(),
            pair.number
        ),
    )
}

/// A 够级 team's token: the three players sit down with it.
pub fn team_token(secret: &str, competition: &str, registered: u64, number: u32) -> String {
    printed(
        "paiju-team-1",
        secret,
        competition,
        &format!("{registered}\x1f{number}"),
    )
}

/// A typed token as compared: lower case, without dashes or spaces.
pub fn normal_token(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\u{3000}'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether a typed token is this card's (compared in constant time).
pub fn same(card: &str, typed: &str) -> bool {
    seat_token::same(&normal_token(card), &normal_token(typed))
}

/// The seat token a card's token gives for one seat of one table.
pub fn seat_token(card_token: &str, table_id: &str, seat: usize) -> String {
    let digest = Sha256::new()
        .chain_update(b"paiju-pair-seat-1\x1f")
        .chain_update(normal_token(card_token).as_bytes())
        .chain_update(format!("\x1f{table_id}\x1f{seat}"))
        .finalize();
    rules::deal::hex(&digest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tournament::Direction;

    #[test]
    fn tokens_are_short_stable_and_their_own() {
        let pair = |direction, number| Pair {
            direction,
            number,
            names: Vec::new(),
            organisation: None,
            bot: false,
        };
        let ns1 = pair(Direction::NS, 1);
        let a = pair_token("s", "e", 1, &ns1);
        assert_eq!(a.len(), 14);
        assert_eq!(a, pair_token("s", "e", 1, &ns1));
        assert_ne!(a, pair_token("s", "e", 1, &pair(Direction::EW, 1)));
        assert_ne!(a, pair_token("s", "e", 7, &ns1));
        assert_ne!(a, team_token("s", "e", 1, 1));
        assert_eq!(normal_token(&a.to_uppercase()), a.replace('-', ""));
        assert!(same(&a, &a.to_uppercase().replace('-', " ")));
        assert!(!same(&a, &pair_token("s", "e", 2, &ns1)));
        assert_eq!(
            seat_token(&a, "t", 0),
            seat_token(&a.replace('-', " "), "t", 0)
        );
        assert_ne!(seat_token(&a, "t", 0), seat_token(&a, "t", 2));
    }
}
