//! Seat tokens: the only proof that a connection plays a seat.
//!
//! A token is 256 random bits from the operating system, shown once (hex) to the player who sat
//! down. The server keeps only its SHA-256, so a leaked database does not let anyone take a seat,
//! and there is no name-based takeover.

use rand_core::{OsRng, TryRngCore};
use sha2::{Digest, Sha256};

/// A fresh token (64 hex digits) and the hash the server stores.
pub fn fresh() -> (String, String) {
    let token = rules::deal::hex(&random_bytes::<32>());
    let hash = hash(&token);
    (token, hash)
}

/// What the server stores and compares: SHA-256 of the token's text (hex).
pub fn hash(token: &str) -> String {
    rules::deal::hex(&Sha256::digest(token.trim().as_bytes()))
}

/// Random bytes from the operating system. Panics only if the OS has no randomness, in which
/// case no token or seed could be trusted anyway.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    OsRng
        .try_fill_bytes(&mut out)
        .expect("the operating system's random source failed");
    out
}

/// A short table code: six digits, easy to read aloud over the phone (「三五七 二四六」) and to
/// type on any keyboard. The lobby checks it is free. Not a secret:
/// the lobby lists every table; seats are proven by their tokens.
pub fn table_code() -> String {
    // 2^64 is not a multiple of 10^6: the bias (under 10^-13) does not matter for a code.
    let n = u64::from_le_bytes(random_bytes::<8>()) % 1_000_000;
    format!("{n:06}")
}

/// The longest code the server has given a table: six digits now, eight letters and digits
/// before (the older codes, 「K3M9QZ7A」).
pub const TABLE_CODE_LONGEST: usize = 8;

/// Whether `id` can be a table's code, as the server makes them: 1 to
/// [`TABLE_CODE_LONGEST`] ASCII letters or digits. What a tool stores under a code it is given
/// (`paiju import --as`) passes here first: no empty id, no path (`../../etc/x`), no page of
/// text.
pub fn check_table_code(id: &str) -> Result<(), String> {
    let fits = (1..=TABLE_CODE_LONGEST).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric());
    if fits {
        return Ok(());
    }
    let shown: String = id.chars().take(24).collect();
    let more = if shown.len() < id.len() { "…" } else { "" };
    Err(format!(
        "{shown:?}{more} is not a table id: an id is 1 to {TABLE_CODE_LONGEST} letters or digits, as the server makes them (123456)"
    ))
}

/// A code as a person gives it: spaces and dashes dropped, letters lower case (older codes had
/// letters), so 「123 456」, 「123-456」 and 「K3M9QZ7A」 find their tables.
pub fn normalise_code(raw: &str) -> String {
    raw.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Equality that takes the same time wherever the strings differ (hashes of tokens).
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_hashed() {
        let (a, ha) = fresh();
        let (b, _) = fresh();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(hash(&a), ha);
        assert!(same(&ha, &hash(&a)));
        assert!(!same(&ha, &hash(&b)));
        let code = table_code();
        assert_eq!(code.len(), 6);
        assert!(code.bytes().all(|b| b.is_ascii_digit()), "{code}");
        assert_eq!(normalise_code(" 123 456 "), "123456");
        assert_eq!(normalise_code("123-456"), "123456");
        assert_eq!(normalise_code("K3M9 QZ7A"), "k3m9qz7a");
        for id in [code.as_str(), "K3M9QZ7A", "sj1"] {
            assert_eq!(check_table_code(id), Ok(()), "{id}");
        }
        for id in [
            "",
            "../../etc/x",
            "a b",
            "123456789",
            "表1",
            &"x".repeat(5000),
        ] {
            assert!(check_table_code(id).is_err(), "{id}");
        }
    }
}
