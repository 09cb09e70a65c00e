//! 审查 (under review) over a real socket: the referee stops a table's clocks while they look
//! into something. The player's move clock stands still and goes on with what was left; the
//! player cannot play meanwhile, bots wait, a page that connects during the review is told; a
//! player cannot put a table under review, nor the referee without a reason.

use std::time::Duration;

use paiju_tests::{Client, TestServer, REFEREE_TOKEN};
use protocol::{Actor, ClientIn, ClientOut};
use serde_json::json;

const SEED: &str = "a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0";

async fn review(c: &mut Client, on: bool, reason: Option<&str>) {
    c.send(&ClientIn::Review {
        on,
        reason: reason.map(str::to_string),
    })
    .await;
}

/// The next `review` message (skipping seats and the like).
async fn next_review(c: &mut Client) -> (bool, Option<String>, Option<protocol::Clock>) {
    match c
        .recv_until(|m| matches!(m, ClientOut::Review { .. } | ClientOut::Error { .. }))
        .await
    {
        ClientOut::Review { on, reason, clock } => (on, reason, clock),
        other => panic!("expected review, got {other:?}"),
    }
}

async fn next_error(c: &mut Client) -> String {
    match c
        .recv_until(|m| matches!(m, ClientOut::Error { .. } | ClientOut::Review { .. }))
        .await
    {
        ClientOut::Error { problem } => problem.code,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_review_the_clock_stands_still_and_goes_on_with_what_was_left() {
    let s = TestServer::start_tuned("review", |config| {
        // 80分's 60 s to bury become 3 s.
        config.clock_scale = 0.05;
    })
    .await;
    let t = s
        .create(json!({"game": "shengji", "seed": SEED, "bots": [1, 2, 3]}))
        .await;
    let me = s.join(&t.id, 0, "老王").await;
    let mut p = s.client(&t.id).await;
    p.hello(Some(&me.token), None).await;
    let ClientOut::Snapshot {
        clock: Some(clock), ..
    } = p
        .recv_until(|m| matches!(m, ClientOut::Snapshot { .. }))
        .await
    else {
        panic!("the declarer's clock runs")
    };
    assert_eq!(clock.seats, vec![0], "N buries first");

    // A player cannot put the table under review.
    review(&mut p, true, Some("我想暂停")).await;
    assert_eq!(next_error(&mut p).await, "referee_only");

    let mut r = s.client(&t.id).await;
    r.hello(Some(REFEREE_TOKEN), None).await;
    // The referee must say why.
    review(&mut r, true, None).await;
    assert_eq!(next_error(&mut r).await, "reason");
    review(&mut r, true, Some("查牌：核对北家的底牌")).await;
    let (on, reason, stopped) = next_review(&mut r).await;
    assert!(on);
    assert_eq!(reason.as_deref(), Some("查牌：核对北家的底牌"));
    let stopped = stopped.expect("the stopped clock is told");
    assert_eq!(stopped.seats, vec![0]);
    assert!(stopped.remaining_ms > 0 && stopped.remaining_ms <= 3000);
    // The player is told too, with the reason and the clock standing still.
    let (on, reason, clock) = next_review(&mut p).await;
    assert!(on);
    assert_eq!(reason.as_deref(), Some("查牌：核对北家的底牌"));
    assert_eq!(clock.map(|c| c.remaining_ms), Some(stopped.remaining_ms));

    // Longer than the whole allowance: the clock does not run out, nothing is played. A fixed
    // wait on purpose: it proves that something does not happen in it.
    tokio::time::sleep(Duration::from_millis(3500)).await;
    // Meanwhile the player cannot play.
    let ClientOut::Snapshot { view, .. } = ({
        p.send(&ClientIn::Resync {}).await;
        p.recv_until(|m| matches!(m, ClientOut::Snapshot { .. }))
            .await
    }) else {
        unreachable!()
    };
    // A resync during the review is told the review again.
    assert!(next_review(&mut p).await.0);
    let hand: Vec<String> = serde_json::from_value(view["hand"].clone()).unwrap();
    p.act(json!({"type": "bury", "cards": hand[..8]})).await;
    let ClientOut::Rejected { problem, .. } = p
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. } | ClientOut::Events { .. }))
        .await
    else {
        panic!("the bury is refused under review")
    };
    assert_eq!(problem.code, "under_review");
    assert_eq!(p.last_seq, 0, "nothing was played");

    // A page that connects now learns of the review after its snapshot.
    let mut w = s.client(&t.id).await;
    w.hello(None, None).await;
    assert!(matches!(w.recv().await, ClientOut::Snapshot { .. }));
    let (on, reason, _) = next_review(&mut w).await;
    assert!(on && reason.is_some());

    // Off: the same move goes on with what was left of its clock.
    review(&mut r, false, None).await;
    let (on, _, resumed) = next_review(&mut p).await;
    assert!(!on);
    let resumed = resumed.expect("the clock runs again");
    assert_eq!(resumed.seats, vec![0]);
    assert!(
        resumed.remaining_ms <= stopped.remaining_ms
            && resumed.remaining_ms + 400 >= stopped.remaining_ms,
        "resumed with {} ms, stopped with {} ms",
        resumed.remaining_ms,
        stopped.remaining_ms
    );
    assert_eq!(resumed.limit_ms, stopped.limit_ms);
    // And it runs out as it would have: the clock's move for N (a warning first).
    let ClientOut::Events { seat, by, seq, .. } = p
        .recv_until(|m| matches!(m, ClientOut::Events { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!((seat, by, seq), (0, Actor::Clock, 1));
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_wait_while_the_table_is_under_review() {
    let s = TestServer::start_tuned("review-bots", |config| {
        config.bot_delay = Duration::from_millis(100);
    })
    .await;
    let t = s
        .create(json!({"game": "gouji", "seed": SEED, "bots": [0, 1, 2, 3, 4, 5]}))
        .await;
    let mut r = s.client(&t.id).await;
    r.hello(Some(REFEREE_TOKEN), None).await;
    review(&mut r, true, Some("检查座位")).await;
    next_review(&mut r).await;
    let at = r.last_seq;
    // Nothing moves for a while (bots play every 100 ms otherwise).
    let quiet = tokio::time::timeout(Duration::from_millis(800), async {
        r.recv_until(|m| matches!(m, ClientOut::Events { .. }))
            .await
    })
    .await;
    assert!(quiet.is_err(), "no bot played under review: {quiet:?}");
    assert_eq!(r.last_seq, at);
    // A referee may still rule meanwhile.
    r.rule(
        1,
        json!({"type": "ruling", "ruling": "warning", "offence": "signals"}),
        Some(1),
        "用语言暗示同伴",
    )
    .await;
    let ClientOut::Events { by, reason, .. } = r
        .recv_until(|m| matches!(m, ClientOut::Events { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(by, Actor::Referee);
    assert_eq!(reason.as_deref(), Some("用语言暗示同伴"));
    review(&mut r, false, None).await;
    assert!(!next_review(&mut r).await.0);
    // The bots play on.
    let ClientOut::Events { by, .. } = r
        .recv_until(|m| matches!(m, ClientOut::Events { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(by, Actor::Bot);
    s.running.shutdown().await;
}
