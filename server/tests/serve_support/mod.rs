//! Starting the real `paiju serve` for a test: a fresh database, port 0 on 127.0.0.1, and the
//! address it prints. Needs `mod tmp_support;` beside it.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use crate::tmp_support::TempDir;

/// A server [`serve`] started. Dropped, pass or fail, it is killed, then its folder removed.
pub struct Served {
    pub child: Child,
    pub addr: SocketAddr,
    #[allow(dead_code)] // not every test that serves reads it
    pub db: PathBuf,
    /// A field, so dropped after [`Drop::drop`] has waited for the child.
    _dir: TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `paiju serve --listen 127.0.0.1:0 --db <fresh> ARGS…` with these environment variables, its
/// standard error piped (for the test to read or drop).
pub fn serve(name: &str, args: &[&str], envs: &[(&str, &str)]) -> Served {
    let dir = TempDir::new(name);
    let db = dir.path().join("paiju.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--practice-daily",
            "off",
        ])
        .args(args)
        .arg("--db")
        .arg(&db)
        .envs(envs.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("paiju serve starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next().unwrap().unwrap();
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap();
    std::thread::spawn(move || for _ in lines {});
    Served {
        child,
        addr,
        db,
        _dir: dir,
    }
}
