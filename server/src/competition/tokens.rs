//! The tokens printed on a competition's cards, one a player (a pair's two, a 够级 team's
//! three): 12 symbols of a 31-letter alphabet without look-alikes (about 59 bits; guessing is
//! also throttled per address), written `xxxx-xxxx-xxxx`, derived from the competition's secret
//! so that the server stores none and the director can reprint a card at any time. A player's
//! token gives their own seat at each of their tables a seat token, the same each time it is
//! asked; it never opens the partner's seat (one player, one seat).

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

/// The token of a pair's player `which` (0: North or East, 1: South or West): from the secret,
/// the registration and the player, so a re-registration makes new ones.
pub fn pair_player_token(
    secret: &str,
    competition: &str,
    registered: u64,
    pair: &Pair,
    which: usize,
) -> String {
    printed(
        "paiju-player-1",
        secret,
        competition,
        &format!(
            "{registered}\x1f{}\x1f{}\x1f{which}",
            pair.direction.name(),
            pair.number
        ),
    )
}

/// The token of a 够级 team's player `which` (0, 1, 2: the team's seat 1, 2, 3 in every game).
pub fn team_player_token(
    secret: &str,
    competition: &str,
    registered: u64,
    number: u32,
    which: usize,
) -> String {
    printed(
        "paiju-team-player-1",
        secret,
        competition,
        &format!("{registered}\x1f{number}\x1f{which}"),
    )
}

/// A player's personal code (练习, issue 26): 12 random symbols of the cards' alphabet, written
/// `xxxx-xxxx-xxxx` (about 59 bits; guessing is throttled per address as for cards). Random, not
/// derived: the server keeps only its hash.
pub fn personal_code() -> String {
    let plain: String = crate::seat_token::random_bytes::<LEN>()
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect();
    format!("{}-{}-{}", &plain[0..4], &plain[4..8], &plain[8..12])
}

/// A player's public id from their personal code: 16 hex digits, in logs and rankings. It
/// proves nothing (the code is not derivable from it), and is the same however the code is
/// typed.
pub fn player_id(code: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"paiju-player-id-1\x1f")
        .chain_update(normal_token(code).as_bytes())
        .finalize();
    rules::deal::hex(&digest[..8])
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

/// A connection's address (or device id) as a competition logs it: a keyed mark, 10 hex
/// digits, equal for equal inputs within the competition and meaningless outside it (the key is
/// the competition's secret, never shown), so the log can be handed over without the players'
/// addresses.
pub fn mark(secret: &str, competition: &str, what: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"paiju-mark-1\x1f")
        .chain_update(secret.as_bytes())
        .chain_update(b"\x1f")
        .chain_update(competition.as_bytes())
        .chain_update(b"\x1f")
        .chain_update(what.as_bytes())
        .finalize();
    rules::deal::hex(&digest[..5])
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
        let a = pair_player_token("s", "e", 1, &ns1, 0);
        assert_eq!(a.len(), 14);
        assert_eq!(a, pair_player_token("s", "e", 1, &ns1, 0));
        assert_ne!(
            a,
            pair_player_token("s", "e", 1, &ns1, 1),
            "partners differ"
        );
        assert_ne!(
            a,
            pair_player_token("s", "e", 1, &pair(Direction::EW, 1), 0)
        );
        assert_ne!(a, pair_player_token("s", "e", 7, &ns1, 0));
        assert_ne!(a, team_player_token("s", "e", 1, 1, 0));
        assert_eq!(normal_token(&a.to_uppercase()), a.replace('-', ""));
        assert!(same(&a, &a.to_uppercase().replace('-', " ")));
        assert!(!same(&a, &pair_player_token("s", "e", 2, &ns1, 0)));
        assert_eq!(
            seat_token(&a, "t", 0),
            seat_token(&a.replace('-', " "), "t", 0)
        );
        assert_ne!(seat_token(&a, "t", 0), seat_token(&a, "t", 2));
    }

    #[test]
    fn personal_codes_are_random_cards_tokens_and_name_one_id_however_typed() {
        let a = personal_code();
        let b = personal_code();
        assert_ne!(a, b);
        assert_eq!(a.len(), 14);
        assert!(normal_token(&a).bytes().all(|c| ALPHABET.contains(&c)));
        let id = player_id(&a);
        assert_eq!(id.len(), 16);
        assert_eq!(id, player_id(&a.to_uppercase().replace('-', " ")));
        assert_ne!(id, player_id(&b));
    }

    #[test]
    fn marks_are_equal_for_equal_addresses_and_keyed() {
        let m = mark("s", "e", "203.0.113.7");
        assert_eq!(m.len(), 10);
        assert_eq!(m, mark("s", "e", "203.0.113.7"));
        assert_ne!(m, mark("s", "e", "203.0.113.8"));
        assert_ne!(
            m,
            mark("t", "e", "203.0.113.7"),
            "another secret, another mark"
        );
        assert!(!m.contains("203"));
    }
}
