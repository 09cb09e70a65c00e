//! Starting the real `paiju serve` for a test: a fresh database, port 0 on 127.0.0.1, and the
//! address it prints.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// The database of the server [`serve`] starts under `name`.
pub fn db_of(name: &str) -> PathBuf {
    std::env::temp_dir()
        .join(format!("paiju-{name}-{}", std::process::id()))
        .join("paiju.db")
}

/// `paiju serve --listen 127.0.0.1:0 --db <fresh> ARGS…` with these environment variables; the
/// child (its standard error piped, for the test to read or drop) and the address it listens on.
pub fn serve(name: &str, args: &[&str], envs: &[(&str, &str)]) -> (Child, SocketAddr) {
    let db = db_of(name);
    let dir = db.parent().unwrap();
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
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
    (child, addr)
}
