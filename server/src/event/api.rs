//! The events' HTTP routes (`/api/events/…`, docs/tournaments.md) and who may call them.
//!
//! The director's calls carry `Authorization: Bearer <director token>`; anything else there (a
//! player's seat token, the referee's token, a guess) is refused with `403 not_director`, and
//! refused tokens are counted per address like the WebSocket's (`429` once too many). A pair's
//! calls carry its pair token in the body. Everything else is public, and shows what the public
//! may see while the event runs (see [`super::scoring`]).
//!
//! Past one machine every call about one event (`/api/events/{id}…`) is answered by the node
//! that runs it: any other node answers `307` to the same path there, as the lobby API does for a
//! table, and one whose lease is free is taken over on the spot. `GET /api/events` lists the
//! events of the node asked; `POST /api/events` creates the event on the node asked, which runs it.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{ConnectInfo, Path as UrlPath, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{codes, Limited, Problem, Refusal, Wrong};
use tokio::time::Instant;

use super::Events;
use crate::http::{self, json_body_up_to, problem, MAX_BODY, MAX_DIRECTOR_BODY};
use crate::limits::{AddressBuckets, Limits};

/// What the routes share.
pub struct EventApi {
    pub events: Arc<Events>,
    /// The HTTP limits (body timeout).
    pub limits: Arc<Limits>,
    /// Refused tokens per client address, shared with the WebSockets.
    pub bad_tokens: Arc<AddressBuckets>,
}

type Api = State<Arc<EventApi>>;

/// The routes, with their state: merged into the server's router (under its Host/Origin guard
/// and JSON refusals).
pub fn routes<S: Clone + Send + Sync + 'static>(api: Arc<EventApi>) -> Router<S> {
    Router::new()
        .route("/api/events", get(list).post(create))
        .route("/api/events/{id}", get(view))
        .route("/api/events/{id}/entries", post(register))
        .route("/api/events/{id}/cards", get(cards))
        .route("/api/events/{id}/rounds/{round}/start", post(start_round))
        .route("/api/events/{id}/rounds/{round}/close", post(close_round))
        .route("/api/events/{id}/adjust", post(adjust))
        .route("/api/events/{id}/deductions", post(deduct))
        .route("/api/events/{id}/disqualify", post(disqualify))
        .route("/api/events/{id}/forfeit", post(forfeit))
        .route("/api/events/{id}/team-deductions", post(team_deduct))
        .route("/api/events/{id}/games/adjust", post(adjust_game))
        .route("/api/events/{id}/lot", post(lot))
        .route("/api/events/{id}/reveal", post(reveal))
        .route("/api/events/{id}/join", post(join))
        .route("/api/events/{id}/pair", post(pair))
        .route("/api/events/{id}/confirm", post(confirm))
        .route("/api/events/{id}/standings", get(standings))
        .route("/api/events/{id}/results.csv", get(results_csv))
        .route("/api/events/{id}/results.html", get(results_html))
        .route_layer(middleware::from_fn_with_state(api.clone(), to_its_node))
        .with_state(api)
}

/// Past one machine: a call about an event another node runs is sent there (`307` with
/// `Location`, and a Problem `elsewhere` naming the node for clients that do not follow it).
async fn to_its_node(State(api): Api, req: Request, next: Next) -> Response {
    let id = req
        .uri()
        .path()
        .strip_prefix("/api/events/")
        .and_then(|rest| rest.split('/').next())
        .filter(|id| !id.is_empty())
        .map(str::to_string);
    let Some(id) = id else {
        return next.run(req).await;
    };
    let Some(owner) = api.events.elsewhere(&id).await else {
        return next.run(req).await;
    };
    let path = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    let mut resp = http::refused(Refusal::Elsewhere {
        owner: owner.to_string(),
        event: true,
    });
    if let Ok(location) = HeaderValue::from_str(&format!("{owner}{path}")) {
        resp.headers_mut().insert(header::LOCATION, location);
    }
    resp
}

fn refused(p: Problem) -> Response {
    problem(Refusal::status_of(&p), p)
}

fn answer<T: serde::Serialize>(r: Result<T, Problem>) -> Response {
    match r {
        Ok(x) => Json(x).into_response(),
        Err(p) => refused(p),
    }
}

fn throttled() -> Response {
    http::refused(Refusal::RateLimited(Limited::RefusedTokens))
}

/// Who calls: the director (a valid bearer token), or anyone (no `Authorization`). A bearer
/// token that is not the director's is refused.
async fn is_director(
    api: &EventApi,
    headers: &HeaderMap,
    peer: SocketAddr,
) -> Result<bool, Response> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(false);
    };
    if !api.bad_tokens.allows(peer.ip(), Instant::now()) {
        return Err(throttled());
    }
    let token = value
        .to_str()
        .ok()
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .unwrap_or("");
    if !token.is_empty() && api.events.is_director(token) {
        return Ok(true);
    }
    api.bad_tokens.charge_anyway(peer.ip(), Instant::now());
    Err(not_director(api))
}

fn not_director(api: &EventApi) -> Response {
    http::refused(Refusal::NotDirector {
        no_director: !api.events.has_director(),
    })
}

/// The director's calls: refused unless the bearer token is the director's.
async fn director(api: &EventApi, headers: &HeaderMap, peer: SocketAddr) -> Result<(), Response> {
    if is_director(api, headers, peer).await? {
        Ok(())
    } else {
        Err(not_director(api))
    }
}

/// A director's JSON body (read only once the caller is known to be the director).
async fn director_body<T: serde::de::DeserializeOwned>(
    api: &EventApi,
    headers: &HeaderMap,
    peer: SocketAddr,
    body: Body,
) -> Result<T, Response> {
    director(api, headers, peer).await?;
    json_body_up_to(&api.limits, body, MAX_DIRECTOR_BODY).await
}

/// A pair's call: throttled per address like any token, charged when the token is wrong.
fn pair_answer<T: serde::Serialize>(
    api: &EventApi,
    peer: SocketAddr,
    r: Result<T, Problem>,
) -> Response {
    if let Err(p) = &r {
        if p.code == codes::BAD_PAIR_TOKEN {
            api.bad_tokens.charge_anyway(peer.ip(), Instant::now());
        }
    }
    answer(r)
}

async fn pair_body<T: serde::de::DeserializeOwned>(
    api: &EventApi,
    peer: SocketAddr,
    body: Body,
) -> Result<T, Response> {
    if !api.bad_tokens.allows(peer.ip(), Instant::now()) {
        return Err(throttled());
    }
    json_body_up_to(&api.limits, body, MAX_BODY).await
}

type Peer = ConnectInfo<SocketAddr>;

async fn list(State(api): Api) -> Response {
    Json(api.events.list().await).into_response()
}

async fn create(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let spec: protocol::CreateEvent = match director_body(&api, &headers, peer, body).await {
        Ok(s) => s,
        Err(resp) => return resp,
    };
    match api.events.create(spec).await {
        Ok(view) => (StatusCode::CREATED, Json(view)).into_response(),
        Err(p) => refused(p),
    }
}

async fn view(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let full = match is_director(&api, &headers, peer).await {
        Ok(f) => f,
        Err(resp) => return resp,
    };
    answer(api.events.view(&id, full).await)
}

async fn register(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::RegisterEntries = match director_body(&api, &headers, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.register(&id, req.entries).await)
}

async fn cards(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
) -> Response {
    if let Err(resp) = director(&api, &headers, peer).await {
        return resp;
    }
    answer(api.events.cards(&id).await)
}

async fn start_round(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath((id, round)): UrlPath<(String, u32)>,
) -> Response {
    if let Err(resp) = director(&api, &headers, peer).await {
        return resp;
    }
    answer(api.events.start_round(&id, round).await)
}

async fn close_round(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath((id, round)): UrlPath<(String, u32)>,
    body: Body,
) -> Response {
    if let Err(resp) = director(&api, &headers, peer).await {
        return resp;
    }
    // The body is optional: `{}` or nothing closes without force.
    let req: protocol::CloseRound = match optional_body(&api, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.close_round(&id, round, req.force).await)
}

async fn adjust(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::AdjustResult = match director_body(&api, &headers, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.adjust(&id, req).await)
}

async fn deduct(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::DeductionIn = match director_body(&api, &headers, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.deduct(&id, req).await)
}

async fn disqualify(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::DisqualifyIn = match director_body(&api, &headers, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.disqualify(&id, req).await)
}

async fn forfeit(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::ForfeitIn = match director_body(&api, &headers, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.forfeit(&id, req).await)
}

async fn team_deduct(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::TeamDeductionIn = match director_body(&api, &headers, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.team_deduct(&id, req).await)
}

async fn adjust_game(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::GameAdjustIn = match director_body(&api, &headers, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.adjust_game(&id, req).await)
}

async fn lot(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::LotIn = match director_body(&api, &headers, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.lot(&id, req).await)
}

async fn reveal(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    if let Err(resp) = director(&api, &headers, peer).await {
        return resp;
    }
    let req: protocol::RevealSeed = match optional_body(&api, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    answer(api.events.reveal(&id, req.early).await)
}

/// A body that may be left out: nothing (or only spaces) reads as the type's default.
async fn optional_body<T: serde::de::DeserializeOwned + Default>(
    api: &EventApi,
    body: Body,
) -> Result<T, Response> {
    let text = crate::http::read_body_up_to(&api.limits, body, MAX_BODY).await?;
    if text.trim().is_empty() {
        return Ok(T::default());
    }
    serde_json::from_str(&text).map_err(|e| {
        http::refused(Refusal::BadRequest(Wrong::Body {
            detail: e.to_string(),
        }))
    })
}

async fn join(
    State(api): Api,
    ConnectInfo(peer): Peer,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::EventJoin = match pair_body(&api, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let r = api.events.join(&id, req).await;
    pair_answer(&api, peer, r)
}

async fn pair(
    State(api): Api,
    ConnectInfo(peer): Peer,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::PairToken = match pair_body(&api, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let r = api.events.pair_status(&id, &req.token).await;
    pair_answer(&api, peer, r)
}

async fn confirm(
    State(api): Api,
    ConnectInfo(peer): Peer,
    UrlPath(id): UrlPath<String>,
    body: Body,
) -> Response {
    let req: protocol::ConfirmResults = match pair_body(&api, peer, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let r = api.events.confirm(&id, req).await;
    pair_answer(&api, peer, r)
}

async fn standings(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let full = match is_director(&api, &headers, peer).await {
        Ok(f) => f,
        Err(resp) => return resp,
    };
    answer(api.events.standings(&id, full).await)
}

async fn results_csv(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let full = match is_director(&api, &headers, peer).await {
        Ok(f) => f,
        Err(resp) => return resp,
    };
    match api.events.standings(&id, full).await {
        Ok(s) => (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"event-{}.csv\"", s.id),
                ),
                (header::CACHE_CONTROL, "no-cache".to_string()),
            ],
            super::scoring::csv(&s),
        )
            .into_response(),
        Err(p) => refused(p),
    }
}

async fn results_html(
    State(api): Api,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let full = match is_director(&api, &headers, peer).await {
        Ok(f) => f,
        Err(resp) => return resp,
    };
    match api.events.results_html(&id, full).await {
        Ok(page) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            page,
        )
            .into_response(),
        Err(p) => refused(p),
    }
}
