//! `paiju replay` and `paiju record-card` as a referee runs them: finished games of both games,
//! played by engines into a SQLite store, replay to their recorded results in Chinese, in
//! English and as JSON; `--at N` shows every hand; a tampered log is reported with its entry;
//! the record card holds every trick.

mod referee_support;

use referee_support::{finished_tables, paiju, Tables};
use rules::gouji::Game;
use rules::shengji::Board;
use rules::{Engine, Viewer};
use serde_json::Value;
use server::referee::lang::Lang;
use server::referee::replayed;
use server::referee::{record_card, replay};
use server::store::{Store, TableHeader};

fn tables(name: &str) -> Tables {
    finished_tables(name, 3, 2)
}

fn db_arg(t: &Tables) -> String {
    t.db.to_str().unwrap().to_string()
}

#[test]
fn every_finished_game_replays_to_its_result_in_both_languages_and_as_json() {
    let t = tables("replay");
    for (id, end) in &t.shengji {
        let checked = replayed::check::<Board>(replayed::load(&t.db, id).unwrap(), None);
        assert!(checked.ok(), "{id}: {:?}", checked.fault);
        let run = checked.replayed.as_ref().expect("80分");
        assert_eq!(&run.end, end, "{id}: the replay ends where the play ended");
        assert_eq!(run.steps.len(), checked.table.log.len());

        let zh = replay::text(&checked, Lang::Zh);
        let en = replay::text(&checked, Lang::En);
        for e in &checked.table.log {
            assert!(
                zh.contains(&format!("#{:<4}", e.seq)),
                "{id}: #{} in the text",
                e.seq
            );
        }
        // Every hand is shown, as dealt, and the kitty.
        let h = &checked.table.header;
        let fixed = server::DealFixed::from_json(&h.fixed)
            .unwrap()
            .shengji()
            .unwrap();
        let seed = rules::deal::Seed::from_hex(&h.seed).unwrap();
        let deal = rules::deal::deal_shengji(&seed, h.board, fixed);
        for cards in deal.hands.iter().chain([&deal.kitty]) {
            let line = server::referee::words::shengji::hand(run.dealt.order(), cards);
            assert!(
                zh.contains(&line) && en.contains(&line),
                "{id}: a dealt hand"
            );
        }
        // Trick by trick, with each trick's winner and points.
        for tr in end.tricks() {
            assert!(zh.contains(&format!("第 {} 轮", tr.trick)));
            assert!(en.contains(&format!("Trick {}\n", tr.trick)));
            assert!(en.contains(&format!("wins trick {}: {} points", tr.trick, tr.points)));
        }
        // The seats' players as the table named them; its computer as the table calls it.
        assert!(
            zh.contains("座位：北 老王 · 东 电脑·东 · 南 张师傅"),
            "{zh}"
        );
        assert!(en.contains("Seats: N 老王 · E 电脑·东 · S 张师傅"), "{en}");
        let result = end.result().unwrap();
        assert!(zh.contains(&format!("结果：闲家 {result} 分")), "{zh}");
        assert!(en.contains(&format!("Result: defenders {result} points")));
        assert!(zh.contains("核对：哈希链完整"));
        assert!(en.contains("Check: the hash chain is intact"));
        // Rulings carry their reasons; clocks are named.
        for e in &checked.table.log {
            if let Some(r) = &e.reason {
                assert!(zh.contains(&format!("〔裁判：{r}〕")));
                assert!(en.contains(&format!("[referee: {r}]")));
            }
            if e.actor == rules::Actor::Clock {
                assert!(zh.contains("〔计时器〕") && en.contains("[clock]"));
            }
        }

        let j = replay::json(&checked);
        assert_eq!(j["ok"], true);
        assert_eq!(
            j["steps"].as_array().unwrap().len(),
            checked.table.log.len()
        );
        assert_eq!(j["result"]["result"], result);
        assert_eq!(
            j["result"]["tricks"].as_array().unwrap().len(),
            end.tricks().len()
        );
    }
    for (id, end) in &t.gouji {
        let checked = replayed::check::<Game>(replayed::load(&t.db, id).unwrap(), None);
        assert!(checked.ok(), "{id}: {:?}", checked.fault);
        let run = checked.replayed.as_ref().expect("够级");
        assert_eq!(&run.end, end);
        let (score, _) = end.score().unwrap();
        let zh = replay::text(&checked, Lang::Zh);
        let en = replay::text(&checked, Lang::En);
        assert!(
            zh.contains(&format!("结果：A 队 {:+}，B 队 {:+}", score.a, score.b)),
            "{zh}"
        );
        assert!(en.contains(&format!(
            "Result: team A {:+}, team B {:+}",
            score.a, score.b
        )));
        for s in rules::gouji::Seat::ALL {
            let p = end.place(s).unwrap();
            assert!(zh.contains(&format!("{} {}", s.name(), p.zh())));
            let hand = server::referee::words::gouji::hand(&run.dealt.hand(s).cards());
            assert!(zh.contains(&hand), "the dealt hand of {s}");
        }
        assert!(zh.contains("第 1 轮（A1 发牌）"));
        assert!(zh.contains("A1 老王 · B1 电脑·B1 · A2 张师傅"), "{zh}");
        assert!(zh.contains("A3 电脑·A3"), "{zh}");
        let passes = checked
            .table
            .log
            .iter()
            .filter(|e| e.action.contains("\"pass\""))
            .count();
        assert!(passes > 0 && zh.matches(" 过").count() >= passes);
        let j = replay::json(&checked);
        assert_eq!(j["ok"], true);
        assert_eq!(j["result"]["score"]["a"], score.a);
    }

    // The binary, end to end: both games, both languages, JSON.
    let db = db_arg(&t);
    let (ok, out, err) = paiju(&["replay", "sj1", "--db", &db]);
    assert!(ok, "{err}");
    assert!(out.starts_with("复盘：桌 sj1 · 80分"));
    let (ok, out, err) = paiju(&["replay", "gj1", "--db", &db, "--lang", "en"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("Replay of table gj1 · 够级"));
    let (ok, out, err) = paiju(&["replay", "sj2", "--db", &db, "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["result"]["result"], t.shengji[1].1.result().unwrap());
    assert_eq!(v["fixed"]["level"], "7");
    let head = v["head"].as_str().unwrap().to_string();
    let (ok, _, err) = paiju(&["replay", "sj2", "--db", &db, "--head", &head]);
    assert!(ok, "{err}");
    let (ok, out, err) = paiju(&["replay", "sj2", "--db", &db, "--head", &"0".repeat(64)]);
    assert!(!ok);
    assert!(
        out.contains("核对失败") && err.contains("与公布的"),
        "{err}"
    );
}

#[test]
fn at_n_shows_the_full_state_with_every_hand() {
    let t = finished_tables("at", 1, 1);
    let db = db_arg(&t);
    let checked = replayed::check::<Board>(replayed::load(&t.db, "sj1").unwrap(), None);
    let run = checked.replayed.as_ref().unwrap();
    for n in [0u64, 1, 9, 30] {
        let (ok, out, err) = paiju(&[
            "replay",
            "sj1",
            "--db",
            &db,
            "--at",
            &n.to_string(),
            "--json",
        ]);
        assert!(ok, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let want = serde_json::to_value(run.after(n as usize).view(Viewer::Referee)).unwrap();
        assert_eq!(v["view"], want, "after {n}");
        let hands = v["view"]["hands"].as_array().unwrap();
        assert_eq!(hands.len(), 4);
        let text = replay::state_text(&checked, n, Lang::Zh).unwrap();
        for (i, h) in hands.iter().enumerate() {
            let cards: Vec<String> = h
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            let seat = rules::shengji::Seat::from_index(i).zh();
            assert!(
                text.contains(&format!("{seat}  ({:>2}) {}", cards.len(), cards.join(" ")))
                    || cards.is_empty()
            );
        }
    }
    let (ok, out, _) = paiju(&["replay", "gj1", "--db", &db, "--at", "12", "--lang", "en"]);
    assert!(ok);
    assert!(out.contains("after action 12") && out.contains("Players:"));
    for s in ["A1", "B1", "A2", "B2", "A3", "B3"] {
        assert!(out.contains(&format!("  {s} (")), "{out}");
    }
    let too_far = (checked.table.log.len() + 1).to_string();
    let (ok, _, err) = paiju(&["replay", "sj1", "--db", &db, "--at", &too_far]);
    assert!(!ok && err.contains("replays"));
}

fn tamper(db: &std::path::Path, sql: &str) {
    let s = server::store::SqliteStore::open(db).unwrap();
    s.connection().execute_batch(sql).unwrap();
}

#[test]
fn a_tampered_log_is_reported_with_its_entry_and_what_does_not_match() {
    let t = finished_tables("tamper", 1, 0);
    let db = db_arg(&t);
    let good = replayed::load(&t.db, "sj1").unwrap();
    let n = good.log.len();

    // An edited action, its hash kept.
    let e7 = &good.log[6];
    let edited = e7.action.replace('"', "'");
    tamper(
        &t.db,
        &format!(
            "UPDATE log SET action = '{}' WHERE table_id = 'sj1' AND seq = 7",
            edited.replace('\'', "''")
        ),
    );
    let (ok, out, err) = paiju(&["replay", "sj1", "--db", &db]);
    assert!(!ok);
    assert!(out.contains("核对失败：第 7 条记录"), "{out}");
    assert!(out.contains("第 8 条仍接在存储的哈希上"), "{out}");
    assert!(err.contains("第 7 条记录"), "{err}");
    let (ok, out, _) = paiju(&["replay", "sj1", "--db", &db, "--lang", "en", "--json"]);
    assert!(!ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["fault"]["kind"], "hash");
    assert_eq!(v["fault"]["seq"], 7);
    assert!(v["fault"]["words"]["en"]
        .as_str()
        .unwrap()
        .contains("entry 8 still chains from the stored hash"));
    // explain refuses a tampered log too.
    let (ok, _, err) = paiju(&["explain", "sj1", "3", "--db", &db, "--lang", "en"]);
    assert!(!ok && err.contains("entry 7"), "{err}");

    // Put it back; then an entry removed: a gap.
    tamper(
        &t.db,
        &format!(
            "UPDATE log SET action = '{}' WHERE table_id = 'sj1' AND seq = 7",
            e7.action.replace('\'', "''")
        ),
    );
    assert!(paiju(&["replay", "sj1", "--db", &db]).0);
    tamper(&t.db, "DELETE FROM log WHERE table_id = 'sj1' AND seq = 12");
    let (ok, out, _) = paiju(&["replay", "sj1", "--db", &db, "--lang", "en"]);
    assert!(!ok);
    assert!(out.contains("entry number 12 carries seq 13"), "{out}");

    // The tail cut off a finished table, re-chained: the hash chain holds, the game does not end.
    tamper(
        &t.db,
        "DELETE FROM log WHERE table_id = 'sj1' AND seq >= 12",
    );
    let (ok, out, _) = paiju(&["replay", "sj1", "--db", &db, "--lang", "en"]);
    assert!(!ok);
    assert!(
        out.contains("recorded as over, but the game does not end"),
        "{out}"
    );
    assert!(n > 12);

    // An action that reads but that the engine refuses, with a correct hash (a forged chain).
    let mut forged = good.clone();
    forged.header.id = "forged".into();
    let mut prev = server::store::genesis(&forged.header);
    for e in forged.log.iter_mut() {
        if e.seq == 5 {
            e.action = r#"{"type":"play","cards":["RJ","RJ","RJ"]}"#.into();
        }
        e.hash = server::store::entry_hash(&prev, e);
        prev = e.hash.clone();
    }
    let checked = replayed::check::<Board>(forged, None);
    let f = checked.fault.as_ref().unwrap();
    assert_eq!((f.kind, f.seq), ("refused", Some(5)));
    assert!(f.code.is_some());
    assert_eq!(
        checked.replayed.as_ref().unwrap().steps.len(),
        4,
        "replayed up to the fault"
    );

    // A seed that does not match its commitment.
    let mut s = server::store::SqliteStore::open(&t.db).unwrap();
    let mut other = good.clone();
    other.header = TableHeader {
        id: "badseed".into(),
        seed: referee_support::seed_of(99).to_hex(),
        ..other.header
    };
    s.create_table(&other).unwrap();
    let (ok, out, _) = paiju(&["replay", "badseed", "--db", &db, "--lang", "en"]);
    assert!(
        !ok && out.contains("the seed does not match its commitment"),
        "{out}"
    );
}

#[test]
fn the_record_card_holds_every_trick() {
    let t = finished_tables("card", 2, 1);
    let db = db_arg(&t);
    for (id, end) in &t.shengji {
        let checked = replayed::check::<Board>(replayed::load(&t.db, id).unwrap(), None);
        let html = record_card::page(&[checked], &record_card::CardOptions::default()).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("升级双人赛随牌记录卡"));
        assert!(html.contains("size: A5 portrait"));
        for tr in end.tricks() {
            let row_start = html
                .find(&format!("data-trick=\"{}\"", tr.trick))
                .unwrap_or_else(|| panic!("trick {} on the card", tr.trick));
            let row = &html[row_start..row_start + html[row_start..].find("</tr>").unwrap()];
            for p in &tr.plays {
                for c in &p.cards {
                    assert!(
                        row.contains(&format!("data-card=\"{c}\"")),
                        "{c} of trick {}",
                        tr.trick
                    );
                }
            }
            let played: usize = tr.plays.iter().map(|p| p.cards.len()).sum();
            assert_eq!(row.matches("data-card=").count(), played);
        }
        assert!(html.contains(&format!("data-result=\"{}\"", end.result().unwrap())));
        for name in ["老王", "张师傅"] {
            assert!(html.contains(name));
        }
    }
    let (ok, out, err) = paiju(&["record-card", "sj1", "sj2", "--db", &db, "--paper", "a4"]);
    assert!(ok, "{err}");
    assert_eq!(out.matches("<section class=\"card\"").count(), 2);
    assert!(out.contains("size: A4 portrait"));
    let (ok, _, err) = paiju(&["record-card", "gj1", "--db", &db]);
    assert!(!ok && err.contains("80分"), "{err}");
    let _ = Engine::is_over(&t.gouji[0].1);
}
