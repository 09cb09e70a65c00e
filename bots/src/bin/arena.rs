//! `arena`: level A against level B in duplicate, with the figures docs/bots.md quotes.
//!
//! ```sh
//! cargo run --release -p bots --bin arena -- --game shengji --a club --b beginner --deals 500
//! cargo run --release -p bots --bin arena -- --game gouji --a expert --b club --playouts 200
//! ```

use std::time::Duration;

use bots::arena::{run, Config, Game};
use bots::{Budget, Level};

fn main() {
    let mut config = Config::new(Game::Shengji, Level::Club, Level::Beginner, 500, 1);
    let args: Vec<String> = std::env::args().skip(1).collect();
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
