//! The command line of `serve`, `load` and `verify`: flags in, the library's calls out.

use std::time::Duration;

use server::store::{self, Store};
use server::{Config, Games};

use crate::referee::flags;

fn parse<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("--{name}: cannot read {value:?}"))
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

pub fn serve(args: &[String]) -> Result<(), String> {
    let f = flags(
        args,
        &[
            "listen",
            "db",
            "web",
            "referee-token",
            "clock-scale",
            "bot-delay-ms",
            "idle-minutes",
            "max-tables",
            "max-connections",
            "allow-origin",
        ],
    )?;
    let mut c = Config::default();
    if let Some(v) = f.get("listen") {
        c.listen = parse("listen", v)?;
    }
    if let Some(v) = f.get("db") {
        c.db = v.into();
    }
    if let Some(v) = f.get("web") {
        c.web = v.into();
    }
    c.referee_token = f
        .get("referee-token")
        .map(|s| s.to_string())
        .or_else(|| std::env::var("PAIJU_REFEREE_TOKEN").ok())
        .filter(|t| !t.trim().is_empty());
    if let Some(v) = f.get("clock-scale") {
        c.clock_scale = parse("clock-scale", v)?;
    }
    if let Some(v) = f.get("bot-delay-ms") {
        c.bot_delay = Duration::from_millis(parse("bot-delay-ms", v)?);
    }
    if let Some(v) = f.get("idle-minutes") {
        c.idle_after = Duration::from_secs_f64(parse::<f64>("idle-minutes", v)? * 60.0);
    }
    if let Some(v) = f.get("max-tables") {
        c.limits.max_tables = parse("max-tables", v)?;
    }
    if let Some(v) = f.get("max-connections") {
        c.limits.max_connections = parse("max-connections", v)?;
    }
    if let Some(v) = f.get("allow-origin") {
        c.allow_origins = v.split(',').map(|s| s.trim().to_string()).collect();
    }
    let rt = runtime()?;
    rt.block_on(async move {
        let running = server::start(c.clone(), Games::standard()).await?;
        // Written with `writeln!`, errors ignored: a closed stdout must not stop the server.
        use std::io::Write;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "paiju: open http://{}/", running.addr);
        let _ = writeln!(
            out,
            "paiju: database {}, web client {}, referee role {}",
            c.db.display(),
            c.web
                .canonicalize()
                .unwrap_or_else(|_| c.web.clone())
                .display(),
            if c.referee_token.is_some() {
                "on"
            } else {
                "off"
            }
        );
        let _ = out.flush();
        running.until_signal().await;
        let _ = writeln!(out, "paiju: stopped");
        Ok(())
    })
}

pub fn load(args: &[String]) -> Result<(), String> {
    let f = flags(args, &["tables", "game", "think-ms", "deadline-s"])?;
    let tables: usize = parse("tables", f.get("tables").copied().unwrap_or("100"))?;
    let game = f.get("game").copied().unwrap_or("shengji").to_string();
    let think = Duration::from_millis(parse(
        "think-ms",
        f.get("think-ms").copied().unwrap_or("200"),
    )?);
    let deadline = Duration::from_secs(parse(
        "deadline-s",
        f.get("deadline-s").copied().unwrap_or("600"),
    )?);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let seats = match game.as_str() {
        "shengji" => 4,
        "gouji" => 6,
        other => return Err(format!("--game: unknown game {other:?}")),
    };
    let opts = bots::load::LoadOptions {
        tables,
        game: game.clone(),
        seats,
        think,
        exe,
        deadline,
    };
    let rt = runtime()?;
    let report = rt.block_on(crate::games::load(opts))?;
    println!("{report}");
    for e in report.errors.iter().take(5) {
        eprintln!("error: {e}");
    }
    Ok(())
}

pub fn verify(args: &[String]) -> Result<(), String> {
    let f = flags(args, &["db", "table"])?;
    let path = std::path::PathBuf::from(f.get("db").copied().unwrap_or("paiju.db"));
    if !path.exists() {
        return Err(format!("no database at {}", path.display()));
    }
    let mut db = store::SqliteStore::open(&path).map_err(|e| e.to_string())?;
    let ids = match f.get("table") {
        Some(id) => vec![id.to_string()],
        None => db.all_ids().map_err(|e| e.to_string())?,
    };
    let mut bad = 0;
    for id in ids {
        match db.table(&id).map_err(|e| e.to_string())? {
            None => return Err(format!("no table {id}")),
            Some(t) => match store::verify(&t.header, &t.log) {
                Ok(()) => println!("{id}: ok, {} entries", t.log.len()),
                Err(e) => {
                    bad += 1;
                    println!("{id}: TAMPERED: {e}");
                }
            },
        }
    }
    if bad > 0 {
        Err(format!("{bad} table(s) failed verification"))
    } else {
        Ok(())
    }
}
