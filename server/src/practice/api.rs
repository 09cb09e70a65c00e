//! The practice routes (docs/practice.md, "For programmers"):
//!
//! - `POST /api/players` `{name}`: a new player, their personal code (counted as a table
//!   opened against the address's allowance).
//! - `POST /api/players/me` `{token}`: the player's own page — their sets, percentages, best
//!   and worst boards, and the events they played; `POST /api/players/me/qr.svg` `{token}`:
//!   their personal link as a QR code; `POST /api/players/me/events` `{token, event, card}`: an
//!   event, from its card's page, in the player's history.
//! - `GET /api/practice`: the sets open to everyone (a club's set is reached by its code).
//!   `POST /api/practice` (the director's token): a set for a club, or any set by hand.
//! - `GET /api/practice/{id}`: the set and its ranking. `POST …/join` `{token, level}`: begin
//!   the set or sit down at the run's board now. `POST …/run` `{token}`: the run board by
//!   board, with each played board's field. `POST …/replay` `{token, table, at?}`: a table of
//!   a board the player has played, every hand (or its state after action `at`); `POST
//!   …/explain` `{token, table, seq, all_seeing?}`: why one of its actions was legal, in the
//!   engine's words. `GET …/standings[?day=]`, `…/results.csv`,
//!   `…/results.html`: the ranking of the set or of a day. `POST …/close` (director): closed
//!   early, its seed revealed.
//!
//! A practice set is a competition: past one machine every call about one goes to the node
//! that runs it (`307`, as for an event).

use std::sync::Arc;

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{
    CompetitionJoin, PlayerNew, PlayerToken, PracticeCreate, PracticeJoin, PracticeReplay, Refusal,
};
use tokio::time::Instant;
use tournament::competition::practice::day_of;
use tournament::competition::PracticeTerms;

use super::players::Players;
use crate::competition::api::{
    answer, csv_response, held, html_response, refused, Api, CompetitionApi, Director, NoBody,
    Player,
};
use crate::competition::denied::Denied;
use crate::competition::handle::{each, Held};
use crate::competition::practice::may_replay;
use crate::competition::printed;
use crate::http;
use crate::referee::words;

/// Days a set stays open at most.
const MAX_DAYS: u32 = 14;

/// The routes, with the competitions' state.
pub fn routes<S: Clone + Send + Sync + 'static>(api: Arc<CompetitionApi>) -> Router<S> {
    Router::new()
        .route("/api/players", post(new_player))
        .route("/api/players/me", post(me))
        .route("/api/players/me/qr.svg", post(my_qr))
        .route("/api/players/me/events", post(my_event))
        .route("/api/practice", get(list).post(create))
        .route("/api/practice/{id}", get(view))
        .route("/api/practice/{id}/join", post(join))
        .route("/api/practice/{id}/run", post(run))
        .route("/api/practice/{id}/replay", post(replay))
        .route("/api/practice/{id}/explain", post(explain))
        .route("/api/practice/{id}/standings", get(standings))
        .route("/api/practice/{id}/results.csv", get(results_csv))
        .route("/api/practice/{id}/results.html", get(results_html))
        .route("/api/practice/{id}/close", post(close))
        .route_layer(axum::middleware::from_fn_with_state(
            api.clone(),
            crate::competition::api::to_its_node,
        ))
        .with_state(api)
}

fn players(api: &CompetitionApi) -> Players {
    Players::new(api.competitions.store())
}

/// A practice set run here (or, past one machine, sent to its node by the middleware).
fn practice_set(api: &CompetitionApi, id: &str) -> Result<Held, Box<Response>> {
    let h = held(api, id)?;
    if h.is_practice() {
        Ok(h)
    } else {
        Err(Box::new(http::refused(Refusal::NotFound { api: true })))
    }
}

async fn new_player(
    State(api): Api,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    call: Player<PlayerNew>,
) -> Response {
    if !api.creations.take(peer.ip(), Instant::now()) {
        return http::refused(Refusal::RateLimited(protocol::Limited::Tables));
    }
    match players(&api).make(&call.body.name).await {
        Ok(made) => (StatusCode::CREATED, Json(made)).into_response(),
        Err(d) => refused(d),
    }
}

async fn me(State(api): Api, call: Player<PlayerToken>) -> Response {
    let players = players(&api);
    let r = match players.check(&call.body.token).await {
        Ok(p) => super::history::of(&api.competitions, &players, &p, &call.body.token).await,
        Err(d) => Err(d),
    };
    call.answer(&api, r)
}

/// The event a card's page was opened for, in the player's history: the card must be one of
/// the event's (its pair or team is what is kept, never the card's token).
async fn my_event(State(api): Api, call: Player<protocol::PlayerEvent>) -> Response {
    let players = players(&api);
    let r = async {
        let p = players.check(&call.body.token).await?;
        let entry = api
            .competitions
            .entry_of(&call.body.event, &call.body.card)
            .await?;
        players
            .note_set(
                &p.id,
                &call.body.event,
                crate::store::now_ms(),
                Some(entry.clone()),
            )
            .await?;
        Ok(serde_json::json!({"event": call.body.event, "entry": entry}))
    }
    .await;
    call.answer(&api, r)
}

/// The personal link as a QR code, on the host the page was loaded from: the code is in the
/// body, never in a URL a proxy would log.
async fn my_qr(State(api): Api, headers: HeaderMap, call: Player<PlayerToken>) -> Response {
    match players(&api).check(&call.body.token).await {
        Ok(_) => {
            let (scheme, host) = http::origin(&headers);
            let code = crate::competition::tokens::normal_token(&call.body.token);
            http::qr_response(&crate::invite::practice_link(scheme, host, &code))
        }
        Err(d) => call.answer::<()>(&api, Err(d)),
    }
}

/// The sets open to everyone: the day's and an organiser's, not a club's.
async fn list(State(api): Api) -> Response {
    let sets: Vec<_> = api
        .competitions
        .practice_sets()
        .into_iter()
        .filter(|s| s.club.is_none())
        .collect();
    Json(sets).into_response()
}

async fn create(State(api): Api, Director(req): Director<PracticeCreate>) -> Response {
    answer(create_set(&api, req).await)
}

async fn create_set(
    api: &CompetitionApi,
    req: PracticeCreate,
) -> Result<protocol::CompetitionView, Denied> {
    let shengji = req.game == "shengji";
    if !shengji && req.game != "gouji" {
        return Err(Refusal::UnknownGame {
            game: req.game,
            known: vec!["shengji".into(), "gouji".into()],
        }
        .into());
    }
    let days = req.days.unwrap_or(if req.club.is_some() { 7 } else { 1 });
    if !(1..=MAX_DAYS).contains(&days) {
        return Err(
            Refusal::BadRequest(protocol::Wrong::Said(protocol::Words::new(
                format!("开放天数要在 1 到 {MAX_DAYS} 天之间"),
                format!("a set stays open 1 to {MAX_DAYS} days"),
            )))
            .into(),
        );
    }
    let now = crate::store::now_ms();
    let offset = api.practice_utc_offset_minutes;
    let today = day_of(now, offset);
    let boards = req.boards.unwrap_or(if shengji {
        super::SHENGJI_BOARDS
    } else {
        super::GOUJI_GAMES
    });
    let name = req.name.unwrap_or_else(|| {
        let whose = req.club.as_deref().unwrap_or("练习");
        format!(
            "{whose} {} · {}",
            words::day_date(today),
            super::game_zh(&req.game)
        )
    });
    let levels = match req.references {
        Some(l) => l
            .iter()
            .map(|x| {
                bots::Level::parse(x)
                    .map(|l| l.name().to_string())
                    .ok_or_else(|| {
                        Denied::from(tournament::competition::Error::PracticeLevel {
                            level: x.clone(),
                        })
                    })
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => super::all_levels(),
    };
    let terms = PracticeTerms {
        // The end of its last day (today the first), and never less than a day from now: a
        // set made late in the evening is not gone minutes later.
        closes_ms: super::daily::closes_ms(today + i64::from(days) - 2, offset)
            .max(now + 86_400_000),
        club: req.club,
        references: levels,
        utc_offset_minutes: offset,
    };
    let mut spec = super::spec(&req.game, name, boards, terms, req.ruleset);
    spec.seed = req.seed;
    api.competitions.create_practice(spec, None).await
}

async fn view(State(api): Api, UrlPath(id): UrlPath<String>) -> Response {
    match practice_set(&api, &id) {
        Ok(h) => answer(each!(h, h => h.view(false).await)),
        Err(resp) => *resp,
    }
}

/// Begins the player's run (the first time) and seats them at its board now. The name is the
/// player's own (from the store), never the request's.
async fn join(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    call: Player<PracticeJoin>,
) -> Response {
    let players = players(&api);
    let r = async {
        let h = match practice_set(&api, &id) {
            Ok(h) => h,
            Err(_) => return Err(Refusal::NoCompetition.into()),
        };
        let p = players.check(&call.body.token).await?;
        let req = CompetitionJoin {
            token: call.body.token.clone(),
            seat: None,
            name: Some(p.name.clone()),
            level: call.body.level.clone(),
        };
        let joined = each!(h, h => h.join(req).await)?;
        // Where the player's history looks. Noted on every join (it changes nothing the
        // second time), so a note lost to a failed write is made again.
        players
            .note_set(&p.id, &id, crate::store::now_ms(), None)
            .await?;
        Ok(joined)
    }
    .await;
    call.answer(&api, r)
}

/// The player's run board by board (`practice_not_begun` before they begin).
async fn run(State(api): Api, UrlPath(id): UrlPath<String>, call: Player<PlayerToken>) -> Response {
    let r = async {
        let h = match practice_set(&api, &id) {
            Ok(h) => h,
            Err(_) => return Err(Refusal::NoCompetition.into()),
        };
        players(&api).check(&call.body.token).await?;
        let status = each!(&h, h => h.status(call.body.token.clone()).await)?;
        status
            .practice
            .ok_or_else(|| tournament::competition::Error::PracticeNotBegun.into())
    }
    .await;
    call.answer(&api, r)
}

/// A table of the set, every hand (or its state after action `at`), for a player who has
/// finished its board.
async fn replay(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    call: Player<PracticeReplay>,
) -> Response {
    let r = async {
        let (stored, revealed) = table_for(&api, &id, &call.body.token, &call.body.table).await?;
        let lobby = api.competitions.lobby();
        let desk = crate::referee::desk::desk_of(&lobby.games, &stored.header.game)
            .map_err(|w| Refusal::BadRequest(protocol::Wrong::Said(w)))?;
        let mut replay = desk.replay_json(stored, call.body.at).map_err(|e| {
            Denied::from(Refusal::BadRequest(protocol::Wrong::Said(
                protocol::Words::same(e),
            )))
        })?;
        // The table's seed is the set's: every board of it. Until the set's seed is revealed
        // the replay shows this board's cards, never what deals the others.
        if !revealed {
            if let Some(seed) = replay.get_mut("seed") {
                *seed = serde_json::Value::Null;
            }
        }
        Ok(replay)
    }
    .await;
    call.answer(&api, r)
}

/// Why an action of a table of the set was legal, in the engine's words, for a player who has
/// finished its board (the referee's explain; with `all_seeing`, what every hand known says).
async fn explain(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    call: Player<protocol::PracticeExplain>,
) -> Response {
    let r = async {
        let (stored, _) = table_for(&api, &id, &call.body.token, &call.body.table).await?;
        let lobby = api.competitions.lobby().clone();
        let (seq, all_seeing) = (call.body.seq, call.body.all_seeing);
        let explained = tokio::task::spawn_blocking(move || {
            let desk = crate::referee::desk::desk_of(&lobby.games, &stored.header.game)?;
            desk.explain(
                crate::referee::desk::Source::Stored(Box::new(stored), None),
                seq,
                None,
                all_seeing,
            )
        })
        .await
        .map_err(|e| Refusal::Internal(protocol::Words::same(e.to_string())))?;
        explained
            .map(|e| serde_json::to_value(e).expect("explanations serialise"))
            .map_err(|w| Refusal::BadRequest(protocol::Wrong::Said(w)).into())
    }
    .await;
    call.answer(&api, r)
}

/// A table of set `id` that the player whose code is `token` may look into (one in the field
/// of a board they have finished), as stored; and whether the set's seed is revealed.
async fn table_for(
    api: &CompetitionApi,
    id: &str,
    token: &str,
    table: &str,
) -> Result<(crate::store::StoredTable, bool), Denied> {
    let h = practice_set(api, id).map_err(|_| Denied::from(Refusal::NoCompetition))?;
    players(api).check(token).await?;
    let status = each!(&h, h => h.status(token.to_string()).await)?;
    if !status.practice.is_some_and(|run| may_replay(&run, table)) {
        return Err(Refusal::NotYetPublic.into());
    }
    let stored = api
        .competitions
        .lobby()
        .journal
        .load(table)
        .await
        .map_err(|e| Refusal::StoreFailed {
            detail: e.0,
            reading: true,
        })?
        .ok_or(Refusal::NoTable)?;
    let revealed = h.brief().state == protocol::CompetitionState::Finished;
    Ok((stored, revealed))
}

/// `?day=YYYY-MM-DD`: the ranking of that day alone; `?lang=en`: a CSV's column names in
/// English.
#[derive(Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Which {
    #[serde(default)]
    day: Option<String>,
    #[serde(default)]
    lang: Option<String>,
}

/// The set's standings, of one day if asked.
async fn of_day(
    api: &CompetitionApi,
    id: &str,
    which: &Which,
) -> Result<crate::competition::standings::Standings, Box<Response>> {
    let h = practice_set(api, id)?;
    let mut s = each!(h, h => h.standings(false).await).map_err(|d| Box::new(refused(d)))?;
    if let (Some(day), Some(p)) = (&which.day, &s.practice) {
        if words::date_day(day).is_none() {
            return Err(Box::new(http::refused(Refusal::BadRequest(
                protocol::Wrong::Said(protocol::Words::new(
                    format!("日期「{day}」不对：应为 年-月-日，如 2026-12-04"),
                    format!("date {day:?}: write it as YYYY-MM-DD, e.g. 2026-12-04"),
                )),
            ))));
        }
        let day_lines = p.of_day(day).unwrap_or_else(|| {
            let mut empty = p.clone();
            empty.day = Some(day.clone());
            empty.lines.clear();
            empty
        });
        s.practice = Some(day_lines);
    }
    Ok(s)
}

async fn standings(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Query(which): Query<Which>,
) -> Response {
    match of_day(&api, &id, &which).await {
        Ok(s) => Json(s).into_response(),
        Err(resp) => *resp,
    }
}

async fn results_csv(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Query(which): Query<Which>,
) -> Response {
    let lang = match which.lang.as_deref() {
        Some("en") => printed::Lang::En,
        _ => printed::Lang::Zh,
    };
    match of_day(&api, &id, &which).await {
        Ok(s) => {
            let name = match &which.day {
                Some(d) => format!("practice-{id}-{d}"),
                None => format!("practice-{id}"),
            };
            csv_response(&name, printed::csv(&s, lang))
        }
        Err(resp) => *resp,
    }
}

async fn results_html(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Query(which): Query<Which>,
) -> Response {
    let s = match of_day(&api, &id, &which).await {
        Ok(s) => s,
        Err(resp) => return *resp,
    };
    let view = match practice_set(&api, &id) {
        Ok(h) => each!(h, h => h.view(false).await),
        Err(resp) => return *resp,
    };
    match view {
        Ok(v) => {
            let body = s
                .practice
                .as_ref()
                .map(|p| printed::practice_body(&s, p))
                .unwrap_or_default();
            html_response(printed::page_of(
                &s,
                body,
                &v.seed_commitment,
                v.seed.as_deref(),
            ))
        }
        Err(d) => refused(d),
    }
}

/// Closes a set early and reveals its seed (an organiser's).
async fn close(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Director(NoBody): Director<NoBody>,
) -> Response {
    let h = match practice_set(&api, &id) {
        Ok(h) => h,
        Err(resp) => return *resp,
    };
    if h.brief().practice.is_some_and(|p| p.open) {
        if let Err(d) = each!(&h, h => h.close_round(1, true).await) {
            return refused(d);
        }
    }
    answer(each!(&h, h => h.reveal(true).await))
}
