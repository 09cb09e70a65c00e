//! The competitions' HTTP routes (`/api/events/…`, docs/tournaments.md) and who may call them.
//!
//! The director's calls carry `Authorization: Bearer <director token>`; anything else there (a
//! player's seat token, the referee's token, a guess) is refused with `403 not_director`, and
//! refused tokens are counted per address like the WebSocket's (`429` once too many). One
//! extractor checks it and reads the body ([`Director`]); [`Reader`] tells the director from the
//! public on the pages anyone may read; [`Player`] reads a pair's or team's call, whose token is
//! in its body. A step only one kind of competition has is answered `404` for the other kind:
//! it has no such route.
//!
//! Past one machine every call about one competition (`/api/events/{id}…`) is answered by the
//! node that runs it: any other node answers `307` to the same path there, as the lobby API does
//! for a table, and one whose lease is free is taken over on the spot. `GET /api/events` lists
//! the competitions of the node asked; `POST /api/events` creates one on the node asked.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path as UrlPath, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{codes, Limited, Refusal};
use serde::de::DeserializeOwned;
use tokio::time::Instant;

use super::denied::Denied;
use super::duplicate::DuplicateStep;
use super::handle::{each, Held};
use super::teams::TeamsStep;
use super::{printed, Competitions};
use crate::http::{self, json_body_up_to, MAX_BODY, MAX_DIRECTOR_BODY};
use crate::limits::{AddressBuckets, Limits};

/// What the routes share.
pub struct CompetitionApi {
    pub competitions: Arc<Competitions>,
    /// The HTTP limits (body timeout).
    pub limits: Arc<Limits>,
    /// Refused tokens per client address, shared with the WebSockets.
    pub bad_tokens: Arc<AddressBuckets>,
    /// New tables per client address, shared with the lobby: a practice player made counts
    /// as a table opened.
    pub creations: Arc<AddressBuckets>,
    /// The fair-play analyses (the console's 公平竞赛).
    pub fairplay: Arc<super::fairplay::FairplayDesk>,
    /// Practice sets' days begin at this offset from UTC (`--practice-utc-offset`).
    pub practice_utc_offset_minutes: i32,
}

pub(crate) type Api = State<Arc<CompetitionApi>>;

/// The routes, with their state: merged into the server's router (under its Host/Origin guard
/// and JSON refusals).
pub fn routes<S: Clone + Send + Sync + 'static>(api: Arc<CompetitionApi>) -> Router<S> {
    Router::new()
        .route("/api/events", get(list).post(create))
        .route("/api/events/{id}", get(view))
        .route("/api/events/{id}/entries", post(register))
        .route("/api/events/{id}/entries/add", post(add_entries))
        .route("/api/events/{id}/cards", get(cards))
        .route("/api/events/{id}/players/{key}/qr.svg", get(player_qr))
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
        .route(
            "/api/events/{id}/fairplay",
            get(fairplay).post(fairplay_run),
        )
        .route("/api/events/{id}/standings", get(standings))
        .route("/api/events/{id}/results.csv", get(results_csv))
        .route("/api/events/{id}/results.html", get(results_html))
        .route_layer(middleware::from_fn_with_state(api.clone(), to_its_node))
        .with_state(api)
}

/// Past one machine: a call about a competition (an event, or a practice set) another node
/// runs is sent there (`307` with `Location`, and a Problem `elsewhere` naming the node for
/// clients that do not follow it).
pub(crate) async fn to_its_node(State(api): Api, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let id = path
        .strip_prefix("/api/events/")
        .or_else(|| path.strip_prefix("/api/practice/"))
        .and_then(|rest| rest.split('/').next())
        .filter(|id| !id.is_empty())
        .map(str::to_string);
    let Some(id) = id else {
        return next.run(req).await;
    };
    let Some(owner) = api.competitions.elsewhere(&id).await else {
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

pub(crate) fn refused(d: Denied) -> Response {
    http::problem(d.status(), d.problem())
}

pub(crate) fn answer<T: serde::Serialize>(r: Result<T, Denied>) -> Response {
    match r {
        Ok(x) => Json(x).into_response(),
        Err(d) => refused(d),
    }
}

fn peer_of(parts: &Parts) -> Option<SocketAddr> {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0)
}

/// Who calls a page anyone may read: the director (a valid bearer token), or anyone (no
/// `Authorization`). A bearer token that is not the director's is refused, and counted.
async fn is_director(
    api: &CompetitionApi,
    headers: &HeaderMap,
    peer: Option<SocketAddr>,
) -> Result<bool, Response> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(false);
    };
    let ip = peer.map(|p| p.ip());
    if ip.is_some_and(|ip| !api.bad_tokens.allows(ip, Instant::now())) {
        return Err(http::refused(Refusal::RateLimited(Limited::RefusedTokens)));
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
    if !token.is_empty() && api.competitions.is_director(token) {
        return Ok(true);
    }
    if let Some(ip) = ip {
        api.bad_tokens.charge_anyway(ip, Instant::now());
    }
    Err(not_director(api))
}

fn not_director(api: &CompetitionApi) -> Response {
    http::refused(Refusal::NotDirector {
        no_director: !api.competitions.has_director(),
    })
}

/// A director's call: refused unless the bearer token is the director's; then its JSON body
/// (an empty body reads as `{}`: the routes whose body is optional take types of defaults).
pub struct Director<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<CompetitionApi>> for Director<T> {
    type Rejection = Response;

    async fn from_request(req: Request, api: &Arc<CompetitionApi>) -> Result<Self, Response> {
        let (parts, body) = req.into_parts();
        if !is_director(api, &parts.headers, peer_of(&parts)).await? {
            return Err(not_director(api));
        }
        let text = http::read_body_up_to(&api.limits, body, MAX_DIRECTOR_BODY).await?;
        let text = if text.trim().is_empty() { "{}" } else { &text };
        serde_json::from_str(text).map(Director).map_err(|e| {
            http::refused(Refusal::BadRequest(protocol::Wrong::Body {
                detail: e.to_string(),
            }))
        })
    }
}

/// The body of a director's call that takes none: whatever JSON was sent is read and ignored.
pub struct NoBody;

impl<'de> serde::Deserialize<'de> for NoBody {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<NoBody, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| NoBody)
    }
}

/// Whether a page anyone may read is asked for by the director (who sees everything).
pub struct Reader(pub bool);

impl FromRequestParts<Arc<CompetitionApi>> for Reader {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        api: &Arc<CompetitionApi>,
    ) -> Result<Self, Response> {
        is_director(api, &parts.headers, peer_of(parts))
            .await
            .map(Reader)
    }
}

/// A pair's or team's call: throttled per address like any token; its JSON body.
pub struct Player<T> {
    pub body: T,
    pub(crate) peer: Option<SocketAddr>,
}

impl<T: DeserializeOwned> FromRequest<Arc<CompetitionApi>> for Player<T> {
    type Rejection = Response;

    async fn from_request(req: Request, api: &Arc<CompetitionApi>) -> Result<Self, Response> {
        let (parts, body) = req.into_parts();
        let peer = peer_of(&parts);
        if peer.is_some_and(|p| !api.bad_tokens.allows(p.ip(), Instant::now())) {
            return Err(http::refused(Refusal::RateLimited(Limited::RefusedTokens)));
        }
        let body = json_body_up_to(&api.limits, axum::body::Body::new(body), MAX_BODY).await?;
        Ok(Player { body, peer })
    }
}

impl<T> Player<T> {
    /// The answer; a wrong token is charged to the caller's address.
    pub(crate) fn answer<R: serde::Serialize>(
        &self,
        api: &CompetitionApi,
        r: Result<R, Denied>,
    ) -> Response {
        if let (Err(d), Some(peer)) = (&r, self.peer) {
            let code = d.problem().code;
            if code == codes::BAD_PAIR_TOKEN || code == codes::BAD_PLAYER_CODE {
                api.bad_tokens.charge_anyway(peer.ip(), Instant::now());
            }
        }
        answer(r)
    }
}

pub(crate) fn held(api: &CompetitionApi, id: &str) -> Result<Held, Box<Response>> {
    api.competitions.get(id).map_err(|d| Box::new(refused(d)))
}

/// No such route for this kind of competition.
fn not_this_kind() -> Response {
    http::refused(Refusal::NotFound { api: true })
}

async fn list(State(api): Api) -> Response {
    Json(api.competitions.events()).into_response()
}

async fn create(
    State(api): Api,
    Director(spec): Director<protocol::CreateCompetition>,
) -> Response {
    match api.competitions.create(spec).await {
        Ok(view) => (StatusCode::CREATED, Json(view)).into_response(),
        Err(d) => refused(d),
    }
}

async fn view(State(api): Api, Reader(full): Reader, UrlPath(id): UrlPath<String>) -> Response {
    match held(&api, &id) {
        Ok(h) => answer(each!(h, h => h.view(full).await)),
        Err(resp) => *resp,
    }
}

async fn register(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Director(req): Director<protocol::RegisterEntries>,
) -> Response {
    match held(&api, &id) {
        Ok(h) => answer(each!(h, h => h.register(req.entries).await)),
        Err(resp) => *resp,
    }
}

async fn add_entries(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Director(req): Director<protocol::RegisterEntries>,
) -> Response {
    match held(&api, &id) {
        Ok(h) => answer(each!(h, h => h.add_entries(req.entries).await)),
        Err(resp) => *resp,
    }
}

async fn cards(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Director(NoBody): Director<NoBody>,
) -> Response {
    match held(&api, &id) {
        Ok(h) => answer(each!(h, h => h.cards().await)),
        Err(resp) => *resp,
    }
}

/// The fair-play analysis: where it stands, and its report once done.
async fn fairplay(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Director(NoBody): Director<NoBody>,
) -> Response {
    if let Err(resp) = held(&api, &id) {
        return *resp;
    }
    Json(api.fairplay.status(&id)).into_response()
}

/// `{"run": true}` starts or resumes the analysis, `{"run": false}` stops it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FairplayRun {
    run: bool,
}

async fn fairplay_run(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Director(body): Director<FairplayRun>,
) -> Response {
    if let Err(resp) = held(&api, &id) {
        return *resp;
    }
    let status = if body.run {
        api.fairplay.start(&id)
    } else {
        api.fairplay.stop(&id)
    };
    Json(status).into_response()
}

/// A player's card as a QR code: their page's link with their own token, on the host the
/// console was loaded from (director only: the code carries the token).
async fn player_qr(
    State(api): Api,
    UrlPath((id, key)): UrlPath<(String, String)>,
    headers: HeaderMap,
    Director(NoBody): Director<NoBody>,
) -> Response {
    let cards = match held(&api, &id) {
        Ok(h) => each!(h, h => h.cards().await),
        Err(resp) => return *resp,
    };
    let cards = match cards {
        Ok(c) => c,
        Err(d) => return refused(d),
    };
    let wanted = format!("/api/events/{id}/players/{key}/qr.svg");
    let token = cards
        .pairs
        .iter()
        .flat_map(|c| &c.players)
        .chain(cards.teams.iter().flat_map(|c| &c.players))
        .find(|p| p.qr == wanted)
        .map(|p| p.token.clone());
    match token {
        Some(token) => {
            let (scheme, host) = http::origin(&headers);
            http::qr_response(&crate::invite::player_link(scheme, host, &id, &token))
        }
        None => http::refused(Refusal::NotFound { api: true }),
    }
}

async fn start_round(
    State(api): Api,
    UrlPath((id, round)): UrlPath<(String, u32)>,
    Director(NoBody): Director<NoBody>,
) -> Response {
    match held(&api, &id) {
        Ok(h) => answer(each!(h, h => h.start_round(round).await)),
        Err(resp) => *resp,
    }
}

async fn close_round(
    State(api): Api,
    UrlPath((id, round)): UrlPath<(String, u32)>,
    Director(req): Director<protocol::CloseRound>,
) -> Response {
    match held(&api, &id) {
        Ok(h) => answer(each!(h, h => h.close_round(round, req.force).await)),
        Err(resp) => *resp,
    }
}

async fn reveal(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    Director(req): Director<protocol::RevealSeed>,
) -> Response {
    match held(&api, &id) {
        Ok(h) => answer(each!(h, h => h.reveal(req.early).await)),
        Err(resp) => *resp,
    }
}

/// `?preview=true` on a director's step: the standings it would make, nothing logged.
#[derive(Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Preview {
    #[serde(default)]
    preview: bool,
}

type Previewed = axum::extract::Query<Preview>;

/// A step only 80分 pairs have (or, previewed, the standings it would make).
async fn pairs_step(api: &CompetitionApi, id: &str, step: DuplicateStep, p: Preview) -> Response {
    match held(api, id) {
        Ok(Held::Duplicate(h)) if p.preview => answer(h.preview(step).await),
        Ok(Held::Duplicate(h)) => answer(h.step(step).await),
        Ok(_) => not_this_kind(),
        Err(resp) => *resp,
    }
}

/// A step only 够级 teams have (or, previewed, the standings it would make).
async fn teams_step(api: &CompetitionApi, id: &str, step: TeamsStep, p: Preview) -> Response {
    match held(api, id) {
        Ok(Held::Teams(h)) if p.preview => answer(h.preview(step).await),
        Ok(Held::Teams(h)) => answer(h.step(step).await),
        Ok(_) => not_this_kind(),
        Err(resp) => *resp,
    }
}

async fn adjust(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(p): Previewed,
    Director(req): Director<protocol::AdjustResult>,
) -> Response {
    pairs_step(&api, &id, DuplicateStep::Adjust(req), p).await
}

async fn deduct(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(p): Previewed,
    Director(req): Director<protocol::DeductionIn>,
) -> Response {
    pairs_step(&api, &id, DuplicateStep::Deduct(req), p).await
}

async fn disqualify(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(p): Previewed,
    Director(req): Director<protocol::DisqualifyIn>,
) -> Response {
    pairs_step(&api, &id, DuplicateStep::Disqualify(req), p).await
}

async fn forfeit(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(p): Previewed,
    Director(req): Director<protocol::ForfeitIn>,
) -> Response {
    pairs_step(&api, &id, DuplicateStep::Forfeit(req), p).await
}

async fn team_deduct(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(p): Previewed,
    Director(req): Director<protocol::TeamDeductionIn>,
) -> Response {
    teams_step(&api, &id, TeamsStep::Deduct(req), p).await
}

async fn adjust_game(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(p): Previewed,
    Director(req): Director<protocol::GameAdjustIn>,
) -> Response {
    teams_step(&api, &id, TeamsStep::AdjustGame(req), p).await
}

async fn lot(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(p): Previewed,
    Director(req): Director<protocol::LotIn>,
) -> Response {
    teams_step(&api, &id, TeamsStep::Lot(req), p).await
}

async fn join(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    call: Player<protocol::CompetitionJoin>,
) -> Response {
    let r = match api.competitions.get(&id) {
        // A practice set's players go through /api/practice, where their code is checked.
        Ok(h) if h.is_practice() => return not_this_kind(),
        Ok(h) => each!(h, h => h.join(call.body.clone()).await),
        Err(d) => Err(d),
    };
    call.answer(&api, r)
}

async fn pair(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    call: Player<protocol::PairToken>,
) -> Response {
    let r = match api.competitions.get(&id) {
        // A practice set's players go through /api/practice, where their code is checked.
        Ok(h) if h.is_practice() => return not_this_kind(),
        Ok(h) => each!(h, h => h.status(call.body.token.clone()).await),
        Err(d) => Err(d),
    };
    call.answer(&api, r)
}

async fn confirm(
    State(api): Api,
    UrlPath(id): UrlPath<String>,
    call: Player<protocol::ConfirmResults>,
) -> Response {
    let r = match api.competitions.get(&id) {
        // A practice set's players go through /api/practice, where their code is checked.
        Ok(h) if h.is_practice() => return not_this_kind(),
        Ok(h) => each!(h, h => h.confirm(call.body.clone()).await),
        Err(d) => Err(d),
    };
    call.answer(&api, r)
}

async fn standings(
    State(api): Api,
    Reader(full): Reader,
    UrlPath(id): UrlPath<String>,
) -> Response {
    match held(&api, &id) {
        Ok(h) => answer(each!(h, h => h.standings(full).await)),
        Err(resp) => *resp,
    }
}

/// `?lang=en`: a CSV's column names in English (Chinese when absent).
#[derive(Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CsvLang {
    #[serde(default)]
    lang: Option<String>,
}

/// The CSV answer: its file named `{name}.csv`.
pub(crate) fn csv_response(name: &str, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}.csv\""),
            ),
            (header::CACHE_CONTROL, "no-cache".to_string()),
        ],
        body,
    )
        .into_response()
}

/// A printable page's answer.
pub(crate) fn html_response(page: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        page,
    )
        .into_response()
}

async fn results_csv(
    State(api): Api,
    Reader(full): Reader,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(q): axum::extract::Query<CsvLang>,
) -> Response {
    let lang = match q.lang.as_deref() {
        Some("en") => printed::Lang::En,
        _ => printed::Lang::Zh,
    };
    let s = match held(&api, &id) {
        Ok(h) => each!(h, h => h.standings(full).await),
        Err(resp) => return *resp,
    };
    match s {
        Ok(s) => csv_response(&format!("event-{}", s.id), printed::csv(&s, lang)),
        Err(d) => refused(d),
    }
}

async fn results_html(
    State(api): Api,
    Reader(full): Reader,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let page = match held(&api, &id) {
        Ok(h) => each!(h, h => h.page(full).await),
        Err(resp) => return *resp,
    };
    match page {
        Ok(page) => html_response(page),
        Err(d) => refused(d),
    }
}
