//! The lobby: the registry of open tables (a DashMap, design principle 5) and the operations
//! that create tables and seat players. Each table itself is its own actor ([`crate::table`]).

use std::sync::Arc;

use dashmap::DashMap;
use protocol::{
    CreateTable, EventTableAsk, JoinSeat, Joined, LeaveSeat, Problem, Refusal, SeatFault,
    TableState, TableSummary, Wrong,
};

use crate::games::Games;
use crate::listing::{self, Listing};
use crate::seat_token;
use crate::store::{self, Journal, SeatRecord, StoreError, StoredTable, TableHeader};
use crate::table::{seed_in_use, DealFixed, TableDeps, TableHandle, TableSettings};

pub struct Lobby {
    pub games: Games,
    /// Open tables by id.
    pub tables: Arc<DashMap<String, TableHandle>>,
    pub journal: Journal,
    pub settings: Arc<TableSettings>,
    pub metrics: Arc<crate::metrics::Metrics>,
    /// Cap on open tables.
    pub max_tables: usize,
    /// Past one machine (PostgreSQL): this node's leases, which say which tables it serves.
    /// `None`: one machine, every table is ours.
    pub leases: Option<Arc<store::Leases>>,
    /// Held while tables are being taken over, so two requests for one table rebuild it once.
    pub taking: tokio::sync::Mutex<()>,
    /// Tables players asked for on the spot ([`Lobby::take`]) and not taken yet: whoever holds
    /// `taking` next takes them all in one go, as the journal commits whatever queued.
    pub asked: std::sync::Mutex<std::collections::HashSet<String>>,
    /// Past one machine: the other nodes' tables and events, as of the last renewal tick.
    pub listing: Arc<Listing>,
}

/// Tables taken over in one go: one lease statement and one read of their logs (three
/// queries) instead of a statement and three queries a table, each read stopping the journal's
/// group commits. Small enough that a player's own takeover, which waits for `taking`, waits
/// for one read of 50 logs at most.
pub const TAKE_AT_ONCE: usize = 50;

/// Seconds a table may give one play (`CreateTable::play_seconds`).
const PLAY_SECONDS: std::ops::RangeInclusive<u32> = 15..=120;

/// Codes drawn for one new table (or event) before it is refused as finding none free: a draw
/// is taken (served here or stored) about once in a thousand at a thousand tables.
pub(crate) const CODE_TRIES: u32 = 40;

/// A display name as shown and stored ([`rules::name::display_name`]), refused as the lobby
/// refuses.
pub fn display_name(raw: &str) -> Result<String, Refusal> {
    rules::name::display_name(raw).map_err(Refusal::BadName)
}

impl Lobby {
    fn deps(&self) -> TableDeps {
        TableDeps {
            journal: self.journal.clone(),
            settings: self.settings.clone(),
            registry: self.tables.clone(),
            metrics: self.metrics.clone(),
            leases: self.leases.clone(),
        }
    }

    /// Past one machine: takes a table no live lease names (its node died, or it was never
    /// served): acquires its lease, then rebuilds it from its log exactly as a restart does.
    /// True when it is served here after the call.
    ///
    /// **Why asked tables go together:** when a node dies, its players reach the survivors
    /// within a second or two of each other, each asking for its own table. Taken one at a
    /// time under `taking` (a lease statement and a read of the log each), the last of a few
    /// thousand waited for all the others; the first to hold the lock now takes every table
    /// asked for meanwhile, up to [`TAKE_AT_ONCE`], and the players behind it find theirs
    /// served.
    pub async fn take(&self, id: &str) -> Result<bool, String> {
        self.asked_for().insert(id.to_string());
        let _one_at_a_time = self.taking.lock().await;
        if self.tables.contains_key(id) {
            return Ok(true);
        }
        // Ours first: another taker's failed round may have drained it without taking it.
        let mut batch = vec![id.to_string()];
        {
            let mut asked = self.asked_for();
            asked.remove(id);
            let more: Vec<String> = asked.iter().take(TAKE_AT_ONCE - 1).cloned().collect();
            for other in more {
                asked.remove(&other);
                batch.push(other);
            }
        }
        let failed = self.take_locked(&batch).await.map_err(|e| e.to_string())?;
        for (other, why) in failed.iter().filter(|(f, _)| f != id) {
            tracing::error!(table = %other, reason = %why, "table not rebuilt from its log");
        }
        match failed.into_iter().find(|(f, _)| f == id) {
            Some((_, why)) => Err(why),
            None => Ok(self.tables.contains_key(id)),
        }
    }

    fn asked_for(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<String>> {
        self.asked.lock().expect("asked tables lock")
    }

    /// [`Lobby::take`] for several tables at once (at most [`TAKE_AT_ONCE`]), as many as this
    /// node has room for: one statement takes their leases, one read of the store loads their
    /// logs. The tables that could not be rebuilt, with why; a store error leaves the rest to
    /// be taken later.
    pub async fn take_many(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        let _one_at_a_time = self.taking.lock().await;
        self.take_locked(ids).await
    }

    /// The takeover itself, `taking` held.
    async fn take_locked(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        let Some(leases) = &self.leases else {
            return Ok(Vec::new());
        };
        let room = self.max_tables.saturating_sub(self.tables.len());
        let wanted: Vec<String> = ids
            .iter()
            .filter(|id| !self.tables.contains_key(*id))
            .take(room)
            .cloned()
            .collect();
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        // The leases first: a log loaded after them has every entry the last owner committed.
        let held = leases.acquire_many(&wanted).await?;
        let ours: Vec<String> = wanted.into_iter().filter(|id| held.contains(id)).collect();
        if ours.is_empty() {
            return Ok(Vec::new());
        }
        let stored = self.journal.load_many(ours).await?;
        self.metrics.takeover();
        let loaded: Vec<String> = stored.iter().map(|t| t.header.id.clone()).collect();
        let failed = self.recover(stored);
        for id in loaded
            .iter()
            .filter(|id| failed.iter().all(|(f, _)| f != *id))
        {
            tracing::info!(table = %id, "took the table over: rebuilt from its log");
            self.metrics.rebuild();
        }
        Ok(failed)
    }

    /// Past one machine: for a table not served here, the address of the node that serves it.
    /// A table whose lease is free is taken over on the spot (then served here: `None`).
    /// `None` too for an unknown or closed table, and on one machine.
    pub async fn elsewhere(&self, id: &str) -> Option<String> {
        let leases = self.leases.as_ref()?;
        if self.tables.contains_key(id) {
            return None;
        }
        match leases.owner(id).await {
            Ok(store::Owner::Other { address, .. }) => Some(address),
            Ok(store::Owner::Free) => {
                if let Err(e) = self.take(id).await {
                    tracing::error!(table = %id, reason = %e, "table not rebuilt from its log");
                }
                None
            }
            Ok(store::Owner::Me | store::Owner::None) => None,
            Err(e) => {
                tracing::warn!(table = %id, error = %e, "cannot look up the table's node");
                None
            }
        }
    }

    /// Past one machine: stops serving a table whose lease another node holds now. Its
    /// connections are told to reconnect, and are then sent to the new owner.
    pub fn hand_over(&self, id: &str) {
        if let Some(handle) = self.get(id) {
            tracing::warn!(table = %id, "lease lost: another node serves the table now");
            tokio::spawn(async move { handle.hand_over().await });
        }
    }

    /// Rebuilds every stored open table by replaying its log. Returns the tables that could not
    /// be rebuilt (tampered logs, unknown games) with the reason; they stay stored, unserved.
    pub fn recover(&self, stored: Vec<StoredTable>) -> Vec<(String, String)> {
        let mut failed = Vec::new();
        for t in stored {
            let id = t.header.id.clone();
            let Some(kind) = self.games.get(&t.header.game) else {
                failed.push((id, format!("unknown game {}", t.header.game)));
                continue;
            };
            match kind.spawn(t, self.deps()) {
                Ok(handle) => {
                    self.tables.insert(id, handle);
                }
                Err(e) => failed.push((id, e)),
            }
        }
        failed
    }

    /// Every open table of every live node, by id: this node's as they are now, the others'
    /// as of the last tick ([`Listing`]); past one machine each names its node.
    pub fn list(&self) -> Vec<TableSummary> {
        let here = self.leases.as_ref().map(|l| l.node.address.clone());
        let ours = self
            .own_list()
            .into_iter()
            .map(|s| TableSummary {
                node: here.clone(),
                ..s
            })
            .collect();
        let mut out = listing::merged(ours, self.listing.tables(), |s| &s.id);
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out
    }

    /// The tables this node lists, for its own list and the other nodes'. An event's tables
    /// are not for the public lobby (seats by player token, no watching).
    pub fn own_list(&self) -> Vec<TableSummary> {
        let all: Vec<TableSummary> = self.tables.iter().map(|t| t.summary()).collect();
        all.into_iter()
            .filter(|s| !self.sealed(&s.seed_commitment))
            .map(|s| self.public(s))
            .collect()
    }

    /// One table's public summary.
    pub fn summary(&self, id: &str) -> Option<TableSummary> {
        let s = self.get(id)?.summary();
        Some(self.public(s))
    }

    /// A summary as it may be shown now: a finished table's seed stays hidden while another
    /// open table still deals from it (checked at read time: the other table may end later).
    fn public(&self, mut s: TableSummary) -> TableSummary {
        if s.seed.is_some()
            && (self.sealed(&s.seed_commitment)
                || seed_in_use(&self.tables, &s.id, &s.seed_commitment))
        {
            s.seed = None;
        }
        s
    }

    /// Whether tables dealing from this seed belong to an event not yet revealed.
    pub fn sealed(&self, seed_commitment: &str) -> bool {
        self.settings.sealed_seeds.contains(seed_commitment)
    }

    /// A table by its code as a person types or reads it: any case, spaces and dashes ignored
    /// (「123 456」 is 「123456」).
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        let code = seat_token::normalise_code(id);
        self.tables.get(&code).map(|t| t.clone())
    }

    /// A table code no open or stored table has: codes are short (six digits, to be read
    /// aloud), so a clash is possible and checked.
    fn find(&self, id: &str) -> Result<TableHandle, Refusal> {
        self.get(id).ok_or(Refusal::NoTable)
    }

    /// Why a table not served here is gone, when there is more to say than that it is not: a
    /// competition's table closed (its round over, or its board settled by the director), so a
    /// late ruling is told the director's adjustment is the way now.
    pub async fn why_gone(&self, id: &str) -> Option<Refusal> {
        let stored = self.journal.load(id).await.ok()??;
        let competing = crate::table::DealFixed::from_json(&stored.header.fixed)
            .ok()?
            .competition
            .is_some();
        (competing && stored.state == TableState::Closed).then_some(Refusal::CompetitionTableClosed)
    }

    pub async fn create(&self, req: CreateTable) -> Result<TableSummary, Refusal> {
        self.create_with(req, None).await
    }

    /// A competition's table: `req` as any table's, with the terms it plays under (kept in its
    /// header with the deal). Only a competition opens one; a `CreateTable` cannot say it.
    pub async fn create_competing(
        &self,
        req: CreateTable,
        terms: tournament::competition::SeatTerms,
    ) -> Result<TableSummary, Refusal> {
        self.create_with(req, Some(terms)).await
    }

    async fn create_with(
        &self,
        req: CreateTable,
        competition: Option<tournament::competition::SeatTerms>,
    ) -> Result<TableSummary, Refusal> {
        if self.tables.len() >= self.max_tables {
            return Err(Refusal::TooManyTables {
                no_free_code: false,
            });
        }
        let kind = self
            .games
            .get(&req.game)
            .ok_or_else(|| Refusal::UnknownGame {
                game: req.game.clone(),
                known: self.games.names().iter().map(|n| n.to_string()).collect(),
            })?;
        let seed = match &req.seed {
            Some(hex) => {
                rules::deal::Seed::from_hex(hex).map_err(|e| Refusal::Rule(Problem::explain(&e)))?
            }
            None => rules::deal::Seed(seat_token::random_bytes::<32>()),
        };
        let board = req.board.unwrap_or(1);
        if board == 0 {
            return Err(Refusal::BadRequest(Wrong::BoardZero));
        }
        let ruleset = req
            .ruleset
            .clone()
            .unwrap_or_else(|| kind.default_ruleset().to_string());
        // A slower clock for a casual table (issue 13): checked here, applied by the game.
        if let Some(s) = req.play_seconds.filter(|s| !PLAY_SECONDS.contains(s)) {
            return Err(Refusal::BadRequest(Wrong::PlaySeconds { seconds: s }));
        }
        // 「电脑水平」: the wire name or the Chinese label; stored by its wire name.
        let bot_level = match req.bot_level.as_deref() {
            None => None,
            Some(s) => Some(bots::Level::parse(s).ok_or_else(|| {
                Refusal::BadRequest(Wrong::BotLevel {
                    level: s.to_string(),
                })
            })?),
        };
        let fixed = DealFixed {
            level: req.level.clone(),
            trump: req.trump.clone(),
            play_seconds: req.play_seconds,
            bot_level,
            competition,
        };
        let seats = kind.check(&ruleset, &seed, board, &fixed)?;
        if let Some(&bad) = req.bots.iter().find(|&&s| s >= seats) {
            return Err(Refusal::BadSeat(SeatFault::NoSuchBotSeat {
                seat: bad,
                seats,
            }));
        }
        let header = TableHeader {
            // Given below, where it is stored.
            id: String::new(),
            game: kind.name().to_string(),
            options: kind.options(&ruleset),
            ruleset,
            deal_algorithm: rules::deal::ALGORITHM.to_string(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            board,
            fixed: fixed.to_json(),
            created_ms: store::now_ms(),
        };
        let seat_records = (0..seats)
            .map(|seat| {
                let bot = req.bots.contains(&seat);
                SeatRecord {
                    seat,
                    name: None,
                    token_hash: None,
                    bot,
                }
            })
            .collect();
        let mut stored = StoredTable {
            header,
            state: TableState::Waiting,
            seats: seat_records,
            log: vec![],
        };
        // A code not served here is tried; whether the store holds it already (a closed table,
        // another node's, or one created on this node in the same moment: six digits, one of
        // thirteen loads of a thousand tables created at once met it) is the insert's to say,
        // which stores nothing then, and another code is drawn.
        let mut tries = 0;
        loop {
            tries += 1;
            if tries > CODE_TRIES {
                return Err(Refusal::TooManyTables { no_free_code: true });
            }
            let code = seat_token::table_code();
            if self.tables.contains_key(&code) {
                continue;
            }
            stored.header.id = code;
            let created = self
                .journal
                .create_table(stored.clone())
                .await
                .map_err(|e| Refusal::StoreFailed {
                    detail: e.0,
                    reading: false,
                })?;
            if created {
                break;
            }
        }
        let id = stored.header.id.clone();
        let handle = kind
            .spawn(stored, self.deps())
            .map_err(|e| Refusal::StoreFailed {
                detail: e,
                reading: false,
            })?;
        let summary = handle.summary();
        self.tables.insert(id, handle);
        Ok(summary)
    }

    pub async fn join(&self, id: &str, req: JoinSeat) -> Result<Joined, Refusal> {
        let table = self.find(id)?;
        // An event's seats are taken with the pair's token (see the event module), never here.
        if self.sealed(&table.summary().seed_commitment) {
            return Err(Refusal::CompetitionTable(EventTableAsk::Sit));
        }
        let name = display_name(&req.name)?;
        let (token, hash) = seat_token::fresh();
        table.join(req.seat, name, hash).await?;
        Ok(Joined {
            table: table.id.clone(),
            seat: req.seat,
            token,
        })
    }

    pub async fn leave(&self, id: &str, req: LeaveSeat) -> Result<(), Refusal> {
        let table = self.find(id)?;
        // An event's seat stays its player's for the round: the event seats players with
        // their pair's token and only the director moves anyone. A page that is done closes.
        if self.sealed(&table.summary().seed_commitment) {
            return Err(Refusal::CompetitionTable(EventTableAsk::Leave));
        }
        table.leave(seat_token::hash(&req.token)).await
    }

    /// Stops every table actor (after its current command: writes finish).
    pub async fn stop_all(&self) {
        let handles: Vec<TableHandle> = self.tables.iter().map(|t| t.clone()).collect();
        for h in handles {
            h.stop().await;
        }
    }
}

/// A lobby of the standard games on `store`, its tables' clocks and computers at their
/// defaults, room for a thousand tables.
#[cfg(test)]
pub(crate) fn lobby_on(
    store: Box<dyn store::Store>,
    metrics: Arc<crate::metrics::Metrics>,
    leases: Option<Arc<store::Leases>>,
) -> Lobby {
    Lobby {
        games: Games::standard(),
        tables: Default::default(),
        journal: Journal::new(store, metrics.clone()),
        settings: Arc::new(TableSettings {
            clock_scale: crate::clock::ClockScale(1.0),
            bot_delay: std::time::Duration::from_secs(1),
            expert_think: std::time::Duration::from_secs(1),
            idle_after: std::time::Duration::from_secs(600),
            referee_hash: None,
            sealed_seeds: Default::default(),
        }),
        metrics,
        max_tables: 1000,
        leases,
        taking: Default::default(),
        asked: Default::default(),
        listing: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// Past one machine: a dead node's players reach a survivor within moments of each other,
    /// each asking for its own table. Every table is served, in a few takeover rounds, not one
    /// round (a lease statement and a read of the log) a table, each waiting for the last.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres_players_asking_at_once_for_a_dead_nodes_tables_are_served_in_few_rounds() {
        const TABLES: usize = 60;
        let url = store::postgres::test_database("asked_together");
        let ids: Vec<String> = (0..TABLES).map(|i| format!("t{i:03}")).collect();
        let (u, dead_ids) = (url.clone(), ids.clone());
        // A store connects with a runtime of its own: off this one's threads.
        let journal_store = tokio::task::spawn_blocking(move || {
            let mut dead =
                store::PostgresStore::open(&u, Some(store::tests::node("dead"))).unwrap();
            for id in &dead_ids {
                dead.create_table(&store::tests::table(id)).unwrap();
            }
            dead.execute("UPDATE leases SET expires_at = now() - interval '1 second'")
                .unwrap();
            store::PostgresStore::open(&u, Some(store::tests::node("alive"))).unwrap()
        })
        .await
        .unwrap();
        let leases = store::Leases::connect(&url, store::tests::node("alive"))
            .await
            .unwrap();
        let metrics = Arc::new(crate::metrics::Metrics::new());
        let lobby = Arc::new(lobby_on(
            Box::new(journal_store),
            metrics.clone(),
            Some(Arc::new(leases)),
        ));
        let asks: Vec<_> = ids
            .iter()
            .map(|id| {
                let (lobby, id) = (lobby.clone(), id.clone());
                tokio::spawn(async move { lobby.elsewhere(&id).await })
            })
            .collect();
        for ask in asks {
            assert_eq!(ask.await.unwrap(), None, "served here, not sent elsewhere");
        }
        let mut served: Vec<String> = lobby.tables.iter().map(|t| t.key().clone()).collect();
        served.sort();
        assert_eq!(served, ids);
        let text = metrics.render([], 0);
        let count = |name: &str| -> f64 {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
                .unwrap_or_else(|| panic!("no {name} in {text}"))
        };
        assert_eq!(count("paiju_table_rebuilds_total "), TABLES as f64);
        let rounds = count("paiju_table_takeovers_total ");
        assert!(
            (1.0..=5.0).contains(&rounds),
            "{rounds} takeover rounds for {TABLES} tables asked for at once"
        );
        lobby.stop_all().await;
    }

    /// A SQLite store where a rival takes the code of the first table asked for, just before
    /// it is stored: two creations in the same moment that drew the same free code.
    struct Rival {
        store: store::SqliteStore,
        raced: Arc<std::sync::Mutex<Option<String>>>,
    }

    impl Store for Rival {
        fn create_table(&mut self, t: &StoredTable) -> Result<bool, store::StoreError> {
            let mut raced = self.raced.lock().unwrap();
            if raced.is_none() {
                assert!(self
                    .store
                    .create_table(&store::tests::table(&t.header.id))?);
                *raced = Some(t.header.id.clone());
            }
            self.store.create_table(t)
        }
        fn append(&mut self, e: &[(String, store::LogEntry)]) -> Result<(), store::StoreError> {
            self.store.append(e)
        }
        fn set_seat(&mut self, t: &str, s: &SeatRecord) -> Result<(), store::StoreError> {
            self.store.set_seat(t, s)
        }
        fn set_state(&mut self, t: &str, s: TableState) -> Result<(), store::StoreError> {
            self.store.set_state(t, s)
        }
        fn open_tables(&mut self) -> Result<Vec<StoredTable>, store::StoreError> {
            self.store.open_tables()
        }
        fn table(&mut self, id: &str) -> Result<Option<StoredTable>, store::StoreError> {
            self.store.table(id)
        }
        fn ids(&mut self) -> Result<Vec<String>, store::StoreError> {
            self.store.ids()
        }
    }

    /// The code drawn was free when looked up, and taken when the table was stored: the table
    /// is stored under another code, not refused, and the rival's table is left as it was.
    #[tokio::test]
    async fn a_code_taken_before_the_table_is_stored_is_drawn_again() {
        let db = store::tests::sqlite_db("lobby", "code_taken");
        let raced = Arc::new(std::sync::Mutex::new(None));
        let rival = Rival {
            store: store::SqliteStore::open(db.path()).unwrap(),
            raced: raced.clone(),
        };
        let metrics = Arc::new(crate::metrics::Metrics::new());
        let lobby = lobby_on(Box::new(rival), metrics, None);
        let req: CreateTable = serde_json::from_str(r#"{"game":"shengji"}"#).unwrap();
        let made = lobby.create(req).await.expect("stored under another code");
        let taken = raced.lock().unwrap().clone().expect("the rival raced");
        assert_ne!(made.id, taken);
        let mut check = store::SqliteStore::open(db.path()).unwrap();
        let rivals = check.table(&taken).unwrap().unwrap();
        assert_eq!(rivals.header, store::tests::table(&taken).header);
        let ours = check.table(&made.id).unwrap().unwrap();
        assert_eq!(ours.header.game, "shengji");
        assert_eq!(ours.seats.len(), 4);
        lobby.stop_all().await;
    }

    #[test]
    fn names_are_normalised_and_reserved_names_refused() {
        let ok = |raw: &str| display_name(raw).map_err(|r| r.code().to_string());
        // NFC: "e" + combining acute becomes one "é".
        assert_eq!(ok("Ame\u{301}lie").unwrap(), "Am\u{e9}lie");
        // Bidi overrides, zero-width characters, controls and the BOM are dropped, then trimmed.
        assert_eq!(ok("  老\u{202E}王\u{200B}\u{FEFF}\u{7} ").unwrap(), "老王");
        assert_eq!(ok("\u{2066}a\u{2069}\u{200E}").unwrap(), "a");
        for empty in ["", "   ", "\u{200B}\u{200D}", "\u{202E} \u{2060}"] {
            assert_eq!(ok(empty).unwrap_err(), "bad_name", "{empty:?}");
        }
        assert_eq!(ok(&"长".repeat(25)).unwrap_err(), "bad_name");
        assert_eq!(ok(&"长".repeat(24)).unwrap(), "长".repeat(24));
        for reserved in [
            "机器人",
            "bot",
            "Bot",
            "电脑",
            " 机\u{200B}器人 ",
            "电脑·东",
            "电脑·A2",
        ] {
            assert_eq!(ok(reserved).unwrap_err(), "bad_name", "{reserved:?}");
        }
        assert_eq!(ok("机器人小王").unwrap(), "机器人小王");
    }
}
