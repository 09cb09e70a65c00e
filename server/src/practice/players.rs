//! A practice player without a password: a name and a personal code (`xxxx-xxxx-xxxx`, like
//! an event card's), which the browser keeps and prints as a link and a QR code for a second
//! device. The server keeps the code's hash, never the code; the player's public id is derived
//! from the code (`competition::tokens::player_id`), so a set's log names the player without
//! holding anything that opens their seat. Whoever has the code is the player: it is a card,
//! not a password, and is guessed no better than one (refusals are throttled per address).

use std::sync::{Arc, Mutex};

use protocol::{PlayerMade, Refusal};

use crate::competition::denied::Denied;
use crate::competition::tokens;
use crate::seat_token;
use crate::store::{self, CompetitionStore, PlayerRecord, StoreError};

/// The players, in the competitions' store.
pub struct Players {
    store: Arc<Mutex<Box<dyn CompetitionStore>>>,
}

fn failed(reading: bool) -> impl Fn(StoreError) -> Denied {
    move |e| {
        Denied::Server(Refusal::StoreFailed {
            detail: e.0,
            reading,
        })
    }
}

impl Players {
    pub fn new(store: Arc<Mutex<Box<dyn CompetitionStore>>>) -> Players {
        Players { store }
    }

    /// Runs `f` on the store off the async threads.
    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn CompetitionStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.store.clone();
        tokio::task::spawn_blocking(move || f(&mut **db.lock().expect("competition store lock")))
            .await
            .map_err(|e| StoreError(e.to_string()))?
    }

    /// A new player: their name checked as every name is, a fresh code.
    pub async fn make(&self, name: &str) -> Result<PlayerMade, Denied> {
        let name = crate::lobby::display_name(name)?;
        let token = tokens::personal_code();
        let record = PlayerRecord {
            id: tokens::player_id(&token),
            name: name.clone(),
            token_hash: seat_token::hash(&tokens::normal_token(&token)),
            created_ms: store::now_ms(),
        };
        let id = record.id.clone();
        self.with(move |db| db.create_player(&record))
            .await
            .map_err(failed(false))?;
        Ok(PlayerMade { id, token, name })
    }

    /// The player a code names, or `bad_player_code`.
    pub async fn check(&self, code: &str) -> Result<PlayerRecord, Denied> {
        let normal = tokens::normal_token(code);
        if normal.is_empty() || normal.len() > 64 {
            return Err(Refusal::BadPlayerCode.into());
        }
        let id = tokens::player_id(code);
        let found = self
            .with(move |db| db.player(&id))
            .await
            .map_err(failed(true))?;
        match found {
            Some(p) if seat_token::same(&p.token_hash, &seat_token::hash(&normal)) => Ok(p),
            _ => Err(Refusal::BadPlayerCode.into()),
        }
    }

    /// Notes that the player began practice set `set`, or (`entry`, e.g. `NS 1`) played in
    /// event `set` (again: nothing changes). Where to look for their history; the run (the
    /// results) is in the set's (the event's) log.
    pub async fn note_set(
        &self,
        player: &str,
        set: &str,
        began_ms: u64,
        entry: Option<String>,
    ) -> Result<(), Denied> {
        let (player, set) = (player.to_string(), set.to_string());
        self.with(move |db| db.note_player_set(&player, &set, began_ms, entry.as_deref()))
            .await
            .map_err(failed(false))
    }

    /// The sets and events the player noted, newest first (an event's with their entry).
    pub async fn sets(&self, player: &str) -> Result<Vec<crate::store::PlayerSet>, Denied> {
        let player = player.to_string();
        self.with(move |db| db.player_sets(&player))
            .await
            .map_err(failed(true))
    }
}
