//! The hash chain: each entry's hash covers the previous one and every field, from a first
//! link that covers the header; [`verify`] checks a stored table against it.

use super::*;

pub(super) fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut h = Fields::default();
    for p in parts {
        h.add(p);
    }
    h.hex()
}

/// SHA-256 over fields, each followed by the unit separator so that no field can run into the
/// next: every hash of the chains (tables' and events') is made this one way.
#[derive(Default)]
struct Fields(Sha256);

impl Fields {
    fn add(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
        self.0.update([0x1f]);
    }

    fn hex(self) -> String {
        rules::deal::hex(&self.0.finalize())
    }
}

/// The chain's first link: a hash of the header. Changing the ruleset, seed commitment or board
/// after the fact breaks every entry's hash.
pub fn genesis(header: &TableHeader) -> String {
    sha256_hex(&[
        b"paiju-log-1",
        header.id.as_bytes(),
        header.game.as_bytes(),
        header.ruleset.as_bytes(),
        header.options.as_bytes(),
        header.deal_algorithm.as_bytes(),
        header.seed_commitment.as_bytes(),
        header.board.to_string().as_bytes(),
        header.fixed.as_bytes(),
        header.created_ms.to_string().as_bytes(),
    ])
}

/// The log's name for a seat token's holder: the first 16 hex digits of the token's hash
/// (enough to tell occupants apart, useless for guessing the token).
pub fn occupant(token_hash: &str) -> String {
    token_hash.chars().take(16).collect()
}

/// An entry's hash: SHA-256 over the previous hash and every field but the hash itself.
/// `occupant` and `reason` are hashed only when present, so entries written before they
/// existed keep their hashes.
pub fn entry_hash(prev: &str, e: &LogEntry) -> String {
    // Fed to the hash field by field, the numbers written on the stack: every action hashes
    // one entry, and building each field as a string first was six allocations of it.
    let mut h = Fields::default();
    let mut digits = Digits::default();
    h.add(prev.as_bytes());
    h.add(digits.of(e.seq));
    h.add(digits.of(e.seat as u64));
    h.add(e.actor.name().as_bytes());
    h.add(e.client_id.map_or(&[][..], |i| digits.of(i)));
    h.add(e.action.as_bytes());
    h.add(digits.of(e.time_ms));
    if let Some(o) = &e.occupant {
        h.add(b"occupant");
        h.add(o.as_bytes());
    }
    if let Some(r) = &e.reason {
        h.add(b"reason");
        h.add(r.as_bytes());
    }
    h.hex()
}

/// A number's decimal digits, written into a buffer of the longest `u64`'s 20.
#[derive(Default)]
struct Digits([u8; 20]);

impl Digits {
    fn of(&mut self, mut n: u64) -> &[u8] {
        let mut at = self.0.len();
        loop {
            at -= 1;
            self.0[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                return &self.0[at..];
            }
        }
    }
}

/// Why a stored log cannot be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tampered {
    /// The seed does not match its published commitment.
    Seed,
    /// Entry number `index` (0-based) does not carry the seq that follows its predecessor.
    Gap { index: usize, seq: u64 },
    /// The entry with this seq does not hash to what is stored (it, or something before it,
    /// was edited).
    Hash { seq: u64 },
}

impl std::fmt::Display for Tampered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tampered::Seed => write!(f, "the seed does not match its commitment"),
            Tampered::Gap { index, seq } => write!(f, "entry {index} has seq {seq}: a gap"),
            Tampered::Hash { seq } => write!(f, "entry {seq} does not match its hash"),
        }
    }
}

/// Checks a stored table: the seed against its commitment, seqs 1..n without gaps, and every
/// hash of the chain.
pub fn verify(header: &TableHeader, log: &[LogEntry]) -> Result<(), Tampered> {
    verify_links(
        &header.seed,
        &header.seed_commitment,
        genesis(header),
        log.iter().map(|e| (e.seq, e.hash.as_str(), e)),
        entry_hash,
    )
}

/// What every hash-chained log of the store is checked for (a table's, an event's): its seed
/// against the published commitment, seqs 1..n without gaps, and each entry's hash over the one
/// before (`link`), starting from the header's `genesis`.
pub(super) fn verify_links<'a, E: 'a>(
    seed: &str,
    commitment: &str,
    genesis: String,
    log: impl Iterator<Item = (u64, &'a str, &'a E)>,
    link: impl Fn(&str, &E) -> String,
) -> Result<(), Tampered> {
    let seed_ok = rules::deal::Seed::from_hex(seed)
        .map(|s| s.commitment() == commitment)
        .unwrap_or(false);
    if !seed_ok {
        return Err(Tampered::Seed);
    }
    let mut prev = genesis;
    for (index, (seq, stored, e)) in log.enumerate() {
        if seq != index as u64 + 1 {
            return Err(Tampered::Gap { index, seq });
        }
        let h = link(&prev, e);
        if h != stored {
            return Err(Tampered::Hash { seq });
        }
        prev = h;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(client_id: Option<u64>, occupant: Option<&str>, reason: Option<&str>) -> LogEntry {
        LogEntry {
            seq: 1234567,
            seat: 3,
            actor: Actor::Referee,
            client_id,
            occupant: occupant.map(str::to_string),
            reason: reason.map(str::to_string),
            action: r#"{"play":["S10","S10"]}"#.into(),
            time_ms: 1_765_000_000_123,
            hash: String::new(),
        }
    }

    /// The bytes an entry's hash covers are the stored logs' contract: every log written so far
    /// verifies against them. Pinned from the implementation that wrote those logs (which
    /// built each field as a string first); the fourth checked with Python's `hashlib` too.
    #[test]
    fn an_entry_hashes_to_the_same_digest_as_the_logs_already_stored() {
        let prev = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        let cases = [
            (
                entry(None, None, None),
                "cf1d5f17e9e692f77592554142055f605bdb1491e4a5cfeb53687465ab46ac87",
            ),
            (
                entry(Some(u64::MAX), None, None),
                "9abfc22f32d5e71f53aaa49d654abd7ec287dde3d6d991831aedd0f6e15351fb",
            ),
            (
                entry(Some(0), Some("0123456789abcdef"), None),
                "a694b31c01964814e1b47940128e46a1dd227c868c92773a177cbbe6e5170fa9",
            ),
            (
                entry(Some(42), Some("0123456789abcdef"), Some("渡し: 3.2")),
                "76d7253ca03f52ab7988df0b8cb397a725ef8a5fb6275d6a21542ebfeff7b64e",
            ),
            (
                entry(None, None, Some("")),
                "ecc0a6f29f1c5eadcbd85f4d3ff801faa30fa21d6c393310e843f765bc9e81ea",
            ),
        ];
        for (e, want) in cases {
            assert_eq!(entry_hash(prev, &e), want, "{e:?}");
        }
    }
}
