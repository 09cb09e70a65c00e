//! The hash chain: each entry's hash covers the previous one and every field, from a first
//! link that covers the header; [`verify`] checks a stored table against it.

use super::*;

pub(super) fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
        h.update([0x1f]); // unit separator: no field can run into the next
    }
    rules::deal::hex(&h.finalize())
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
    let client_id = e.client_id.map(|i| i.to_string()).unwrap_or_default();
    let (seq, seat, time) = (e.seq.to_string(), e.seat.to_string(), e.time_ms.to_string());
    let mut parts: Vec<&[u8]> = vec![
        prev.as_bytes(),
        seq.as_bytes(),
        seat.as_bytes(),
        e.actor.name().as_bytes(),
        client_id.as_bytes(),
        e.action.as_bytes(),
        time.as_bytes(),
    ];
    if let Some(o) = &e.occupant {
        parts.push(b"occupant");
        parts.push(o.as_bytes());
    }
    if let Some(r) = &e.reason {
        parts.push(b"reason");
        parts.push(r.as_bytes());
    }
    sha256_hex(&parts)
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
