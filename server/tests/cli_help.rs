//! One command line (clap) for every subcommand: `paiju <cmd> --help` prints its usage and exits
//! 0, an unknown flag exits 2 naming it. The subcommands are read off `paiju --help` itself (and
//! `paiju event --help`), so a command added later is checked too.

use std::process::{Command, Output};

fn paiju(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(args)
        .output()
        .expect("run paiju")
}

/// The subcommands a help text lists under `Commands:` (without clap's own `help`).
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_subcommand_has_help_and_names_a_bad_flag() {
    let top = String::from_utf8(paiju(&["--help"]).stdout).unwrap();
    let mut all: Vec<Vec<String>> = Vec::new();
    for c in commands(&top) {
        let help = paiju(&[&c, "--help"]);
        let text = String::from_utf8(help.stdout).unwrap();
        for sub in commands(&text) {
            all.push(vec![c.clone(), sub]);
        }
        all.push(vec![c]);
    }
    let names: Vec<String> = all.iter().map(|c| c.join(" ")).collect();
    for want in [
        "serve",
        "load",
        "bot",
        "arena",
        "verify",
        "migrate",
        "deal",
        "judge",
        "replay",
        "explain",
        "export",
        "import",
        "record-card",
        "event",
        "event movement",
        "event score",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }
    for cmd in &all {
        let mut args: Vec<&str> = cmd.iter().map(String::as_str).collect();
        let name = args.join(" ");
        args.push("--help");
        let out = paiju(&args);
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{name} --help: {text}");
        assert!(
            text.contains(&format!("Usage: paiju {name}")),
            "{name} --help prints its usage: {text}"
        );
        args.pop();
        args.push("--no-such-flag");
        let out = paiju(&args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{name} --no-such-flag: {err}");
        assert!(
            err.contains("unexpected argument '--no-such-flag'"),
            "{name}: {err}"
        );
        assert!(out.stdout.is_empty(), "{name}: nothing runs");
    }
}

#[test]
fn a_bad_value_names_its_flag() {
    for (args, flag) in [
        (&["replay", "sj1", "--at", "x"][..], "--at"),
        (&["replay", "sj1", "--lang", "fr"], "--lang"),
        (&["explain", "sj1", "x"], "[SEQ]"),
        (&["explain", "sj1", "2", "--seat", "N"], "--try"),
        (
            &[
                "explain", "sj1", "2", "--try", "{}", "--seat", "N", "--actor", "x",
            ],
            "--actor",
        ),
        (&["record-card", "sj1", "--paper", "a3"], "--paper"),
        (&["export"], "<TABLE ID>"),
        (&["import"], "<BOARD FILE>"),
        (&["deal", "--seed", "00", "--board", "1"], "--seed"),
    ] {
        let out = paiju(args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?} names {flag}: {err}");
    }
}
