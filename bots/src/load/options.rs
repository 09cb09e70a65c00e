//! What a load runs: its size, pace, servers and store, and what to do to them.

use std::path::PathBuf;
use std::time::Duration;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub tables: usize,
    /// `shengji` or `gouji`.
    pub game: String,
    /// Seats per table (4 or 6).
    pub seats: usize,
    /// Bot thinking time per action.
    pub think: Duration,
    /// The `paiju` binary to start as the server (and as the echo server).
    pub exe: PathBuf,
    /// Each phase (echo floor, creating the tables, playing) gives up after this long.
    pub deadline: Duration,
    /// The server's store: a `postgres://` URL; `None`: a fresh SQLite file, deleted after.
    pub db: Option<String>,
    /// How many `paiju serve` nodes to start on that one PostgreSQL database (1: one server).
    /// See [`super::Nodes`].
    pub nodes: usize,
    /// Tables of computers alone (every seat the server's bot at [`LoadOptions::computer_level`])
    /// playing beside the measured tables from before they sit down to the end: what computer
    /// players' thinking costs the people's tables.
    pub computer_tables: usize,
    /// `beginner`, `club` or `expert`.
    pub computer_level: String,
    /// Stop the play after this long and report what was played (`--seconds`): a 够级 game is
    /// about a thousand actions, a thousand tables of it a quarter of an hour.
    pub seconds: Option<Duration>,
    /// Generator processes playing the bots (`--generators`): 0 for as many as the open-files
    /// limit needs (one a 4,950 tables of four here), 1 for this process alone.
    pub generators: usize,
    /// Past one machine: kill the last node with SIGKILL this long into the play
    /// (`--kill-node-after`): its tables must be served again by the others, nothing
    /// acknowledged lost.
    pub kill_after: Option<Duration>,
    /// `--blocks`: the play and its floors in turns of this long each, from the moment every
    /// seat is taken ([`super::Blocks`]); one generator only, with files for the floors'
    /// connections beside the play's.
    pub blocks: Option<Duration>,
}
