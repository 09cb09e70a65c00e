//! The tokens printed on an event's cards (a pair's, a 够级 team's): 12 symbols of a 31-letter
//! alphabet without look-alikes (about 59 bits; guessing is also throttled per address),
//! written `xxxx-xxxx-xxxx`, derived from the event's secret so that the server stores none and
//! the director can reprint a card at any time.

use sha2::{Digest, Sha256};

/// The symbols: no look-alikes (no 0/o, 1/l/i), as table codes.
const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
/// Symbols in a token.
const LEN: usize = 12;

/// The token of `tag` (what it is for, e.g. `paiju-pair-1`), the event's secret, the event, and
/// `tail` (the registration and the entry).
pub fn printed(tag: &str, secret: &str, event: &str, tail: &str) -> String {
    let digest = Sha256::new()
        .chain_update(tag.as_bytes())
        .chain_update(b"\x1f")
        .chain_update(secret.as_bytes())
        .chain_update(b"\x1f")
        .chain_update(event.as_bytes())
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
