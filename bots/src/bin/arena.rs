//! `arena`: level A against level B in duplicate, with the figures docs/bots.md quotes.
//!
//! ```sh
//! cargo run --release -p bots --bin arena -- --game shengji --a club --b beginner --deals 500
//! cargo run --release -p bots --bin arena -- --game gouji --a expert --b club --playouts 200
//! cargo run --release -p bots --bin arena -- --person 600 [club]   # a person's wait
//! cargo run --release -p bots --bin arena -- --notes 2000          # 够级 notes read every step?
//! ```

use std::time::Duration;

use bots::arena::{run, Config, Game};
use bots::{Budget, Level};

fn main() {
    let mut config = Config::new(Game::Shengji, Level::Club, Level::Beginner, 500, 1);
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--notes") {
        let games = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(2000);
        let (seats, complete, exact) = bots::arena::gouji::notes_check(games, 1);
        println!(
            "gouji notes, {games} games of mixed beginner and club players: {seats} seats, \
             {complete} complete, {exact} of them replay to exactly the engine's game"
        );
        return;
    }
    if args.first().map(String::as_str) == Some("--person") {
        let games = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(300);
        person(games, args.get(2).map(String::as_str) != Some("club"));
        return;
    }
    let mut i = 0;
    let value = |i: usize| -> &str {
        args.get(i + 1).map(String::as_str).unwrap_or_else(|| {
            eprintln!("{} needs a value", args[i]);
            std::process::exit(2)
        })
    };
    let bad = |what: &str| -> ! {
        eprintln!("bad {what}; usage: arena [--game shengji|gouji] [--a LEVEL] [--b LEVEL] [--deals N] [--seed N] [--playouts N | --time-ms N] [--threads N]");
        std::process::exit(2)
    };
    while i < args.len() {
        let v = value(i);
        match args[i].as_str() {
            "--game" => config.game = Game::parse(v).unwrap_or_else(|| bad("--game")),
            "--a" => config.a = Level::parse(v).unwrap_or_else(|| bad("--a")),
            "--b" => config.b = Level::parse(v).unwrap_or_else(|| bad("--b")),
            "--deals" => config.deals = v.parse().unwrap_or_else(|_| bad("--deals")),
            "--seed" => config.seed = v.parse().unwrap_or_else(|_| bad("--seed")),
            "--playouts" => {
                config.budget = Budget::Playouts(v.parse().unwrap_or_else(|_| bad("--playouts")))
            }
            "--time-ms" => {
                config.budget = Budget::Time(Duration::from_millis(
                    v.parse().unwrap_or_else(|_| bad("--time-ms")),
                ))
            }
            "--threads" => config.threads = v.parse().unwrap_or_else(|_| bad("--threads")),
            _ => bad(&args[i]),
        }
        i += 2;
    }
    let start = std::time::Instant::now();
    let report = run(&config);
    println!("{report}");
    println!("wall time: {:.1} s", start.elapsed().as_secs_f64());
}

/// `arena --person N [club]`: five 普通 bots and one person (eager random, or playing as 普通),
/// N 够级 games.
fn person(games: usize, eager: bool) {
    let w = bots::arena::gouji::person_wait(games, 1, eager);
    let mut after = w.after.clone();
    after.sort_unstable();
    let at = |q: f64| after[((after.len() as f64 - 1.0) * q).round() as usize];
    let mean = after.iter().sum::<u64>() as f64 / after.len().max(1) as f64;
    let mut places = [0usize; 6];
    for &p in &w.places {
        places[p] += 1;
    }
    let actions = w.actions.iter().sum::<u64>() as f64 / w.games as f64;
    println!(
        "gouji, 5 club bots + 1 {} person, {} games (mean {actions:.0} actions a game)",
        if eager {
            "eager random"
        } else {
            "club-playing"
        },
        w.games
    );
    println!(
        "person out before the end: {} games; places 头科..大落: {:?}",
        w.person_out, places
    );
    if !after.is_empty() {
        println!(
            "computer actions after the person is out: mean {mean:.1}, p50 {}, p90 {}, max {}",
            at(0.5),
            at(0.9),
            after[after.len() - 1]
        );
    }
    for (place, name) in ["头科", "二科", "三科", "四科", "二落"].iter().enumerate() {
        let xs: Vec<u64> = (0..w.places.len())
            .filter(|&i| w.places[i] == place)
            .map(|i| w.after[i])
            .collect();
        if !xs.is_empty() {
            let mean = xs.iter().sum::<u64>() as f64 / xs.len() as f64;
            println!(
                "  out {name}: {} games, computer actions after: mean {mean:.1}, max {}",
                xs.len(),
                xs.iter().max().unwrap()
            );
        }
    }
}
