//! Prints the JSON of the 够级 event functions on a small example: a seeded draw, a knockout
//! round, a match, the final's schedule and standings. docs/tournaments.md quotes its output.
//!
//! ```text
//! cargo run -p tournament --example gouji_event
//! ```

use rules::deal::Seed;
use serde_json::json;
use tournament::gouji::{
    draw_groups, final_schedule, final_standings, knockout_round, match_result, Entrant,
    FinalGroups, FinalInput, FinalSeating, GameRecord, Side, TeamDeduction, TeamMatch,
};

fn game(a: i32, b: i32, first: Side, last: Side) -> GameRecord {
    GameRecord {
        a,
        b,
        first: Some(first),
        last: vec![last],
    }
}

fn main() {
    let seed = Seed::from_hex(&"ab".repeat(32)).expect("a seed");
    let orgs = ["市直", "薛城", "峄城", "台儿庄", "山亭"];
    let entrants: Vec<Entrant> = (0..10)
        .map(|i| Entrant {
            team: format!("{}{}队", orgs[i % 5], i / 5 + 1),
            organisation: orgs[i % 5].to_string(),
        })
        .collect();
    let groups = draw_groups(&entrants, 2, &seed).expect("a draw");
    println!("draw_groups: {}", json!(groups));
    println!(
        "knockout_round 1: {}",
        json!(knockout_round(&groups, 1, &seed).unwrap())
    );

    use Side::{A, B};
    let m = TeamMatch {
        a: "市直1队".into(),
        b: "薛城1队".into(),
        games: vec![
            game(6, -6, A, B),
            game(-2, 2, B, A),
            game(12, -12, A, B),
            game(-4, 4, B, A),
            game(0, 0, A, B),
            game(-12, 12, B, A),
        ],
        deductions: vec![],
        extra_games: vec![],
    };
    println!("match_result: {}", json!(match_result(&m).unwrap()));

    let groups = FinalGroups {
        a: ["市直1队".into(), "峄城1队".into(), "山亭1队".into()],
        b: ["薛城1队".into(), "台儿庄1队".into(), "市直2队".into()],
    };
    println!(
        "final_schedule: {}",
        json!(final_schedule(&groups, 3, FinalSeating::Balanced).unwrap())
    );
    let input = FinalInput {
        groups,
        seating: FinalSeating::Balanced,
        games: 3,
        results: vec![
            [game(4, -4, A, B), game(-4, 4, B, A), game(2, -2, A, B)],
            [game(2, -2, B, B), game(-6, 6, B, A), game(12, -12, A, B)],
            [game(-2, 2, A, A), game(4, -4, A, B), game(-4, 4, B, A)],
        ],
        deductions: vec![TeamDeduction {
            team: "台儿庄1队".into(),
            points: 4,
            reason: Some("赛后同牌型交流".into()),
        }],
        extra_games: vec![],
    };
    println!(
        "final_standings: {}",
        json!(final_standings(&input).unwrap())
    );
}
