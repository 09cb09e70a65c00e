//! What the load reads of its processes (`/proc`: CPU, memory, threads), the open-files limit
//! it needs, and how it starts its children (the servers, the echo server) and reads the
//! address each prints.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

/// User + system CPU seconds of a process so far (`/proc/<pid>/stat`, fields 14 and 15).
pub fn cpu_seconds(pid: &str) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // The command name may hold spaces: count fields after its closing parenthesis.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of the whole line are 12 and 13 after the name (state is field 3).
    (ticks(11) + ticks(12)) / 100.0
}

/// CPU seconds of a process's live threads so far, to the nanosecond (the scheduler's own
/// count, `/proc/<pid>/task/*/schedstat`): a short phase is a few ticks of `/proc/<pid>/stat`.
pub(super) fn threads_cpu_seconds(pid: u32) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0.0;
    };
    let ns: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    ns as f64 / 1e9
}

/// A number field of `/proc/<pid>/status` (`VmRSS:  1234 kB` → 1234); 0 if it cannot be read.
fn status_field(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

/// Threads of a process now.
pub fn thread_count(pid: u32) -> u64 {
    status_field(pid, "Threads")
}

/// VmRSS of a process, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    status_field(pid, "VmRSS")
}

/// Open files a process needs besides its connections: listener, database, WAL, stdio, the
/// runtime's epoll and wakers, a few HTTP requests in flight.
pub(super) const SPARE_FILES: u64 = 100;

/// The hard limit of open files a process may have (what a generator can lift its own to).
pub fn files_limit() -> u64 {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we pass and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return 1024;
    }
    lim.rlim_max
}

/// Checks that a process of the run holding `connections` sockets (a node, the echo server, a
/// generator: one socket per connection each) may open enough files, lifting the soft limit up
/// to the hard one if needed (the children inherit it). The error is one line saying what is
/// needed.
pub fn open_files(connections: usize) -> Result<u64, String> {
    let needed = connections as u64 + SPARE_FILES;
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we pass and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Err(format!(
            "cannot read the open-files limit: {}",
            std::io::Error::last_os_error()
        ));
    }
    if lim.rlim_cur >= needed {
        return Ok(lim.rlim_cur);
    }
    if lim.rlim_max < needed {
        return Err(format!(
            "{connections} connections in one process (a node's share of the tables, or its share after a node is killed) need {needed} open files, but the hard limit is {} (soft {}): raise it (ulimit -Hn {needed}; as root), add nodes, or play at most {} connections a node",
            lim.rlim_max,
            lim.rlim_cur,
            lim.rlim_max.saturating_sub(SPARE_FILES)
        ));
    }
    let lifted = libc::rlimit {
        rlim_cur: needed,
        rlim_max: lim.rlim_max,
    };
    // SAFETY: setrlimit reads the struct we pass; raising the soft limit up to the hard one is
    // always allowed.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lifted) } != 0 {
        return Err(format!(
            "{connections} connections need {needed} open files, the limit is {}: cannot raise it: {} (ulimit -n {needed})",
            lim.rlim_cur,
            std::io::Error::last_os_error()
        ));
    }
    Ok(needed)
}

/// Starts `exe` with `args` and reads its standard output until a line holds `marker`
/// followed by an address; keeps draining the rest so the child never blocks on it.
pub(super) async fn start_child(
    exe: &Path,
    args: &[&std::ffi::OsStr],
    marker: &str,
    within: Duration,
) -> Result<(tokio::process::Child, SocketAddr), String> {
    let mut command = tokio::process::Command::new(exe);
    // The server's own log (every event action is one INFO line) would bury the report: warnings
    // and errors only, unless the operator asked for more with RUST_LOG.
    if std::env::var_os("RUST_LOG").is_none() {
        command.env("RUST_LOG", "warn");
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("start {}: {e}", exe.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    let found = tokio::time::timeout(within, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(rest) = line.split(marker).nth(1) {
                let addr = rest.trim_end_matches('/').trim();
                return addr
                    .parse::<SocketAddr>()
                    .map_err(|e| format!("{e}: {line}"));
            }
        }
        Err(format!("{} printed no address", exe.display()))
    })
    .await
    .map_err(|_| format!("{} printed no address within {within:?}", exe.display()))??;
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok((child, found))
}

/// CPU time (user and system) of the calling thread so far.
pub fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
