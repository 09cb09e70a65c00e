//! 抽签 (the draw) of the 够级 knockout: 把所有参赛队伍分成甲、乙、丙、丁……等N个小组，同一单位
//! 的两支代表队不分在同一个组 …… 由大赛组委会抽签决定比赛双方 …… 胜者进入下一轮，最后6支队伍
//! 进行决赛.
//!
//! Deterministic from a published seed (algorithm `paiju-draw-1`): the seed is that of the
//! deals ([`rules::deal::Seed`]: commit its SHA-256 before the draw, reveal it after), XORed with
//! the bytes of `paiju-draw-1` repeated to 32 bytes so that a seed used for both a draw and
//! deals gives unrelated streams; the stream of step `n` is [`DealStream`] of that seed, game
//! `gouji`, number `n`: 0 for the groups, `r` for knockout round `r`, `u32::MAX` for the final's
//! groups. Teams are taken in the order of their names first, so the input order never matters.
//!
//! - [`draw_groups`]: teams into groups, sizes differing by at most one, no two teams of one
//!   organisation in a group. Each organisation in turn (in drawn order) puts its teams into the
//!   least-filled groups (ties drawn); that keeps the sizes balanced and, with no organisation
//!   having more teams than there are groups, always succeeds.
//! - [`knockout_round`]: the matches of a round. Teams meet within their group; a round plays just
//!   enough matches to come down towards six (never below), the others have a bye (轮空); when every
//!   group is down to one team and more than six are left, the groups are pooled.
//! - [`advance`]: the groups after a round, from its winners.
//! - [`draw_final_groups`]: the six finalists into groups A and B.

use rules::deal::{DealStream, Seed, Stream};
use serde::{Deserialize, Serialize};

use super::final_round::FinalGroups;
use super::game::TeamId;
use crate::error::Error;

/// Teams in the final.
pub const FINALISTS: usize = 6;

/// The domain tag of the draw's stream.
const TAG: &[u8] = b"paiju-draw-1";

/// The draw's random stream for step `n`.
fn stream(seed: &Seed, n: u32) -> DealStream {
    let mut bytes = seed.0;
    for (b, t) in bytes.iter_mut().zip(TAG.iter().cycle()) {
        *b ^= t;
    }
    DealStream::new(&Seed(bytes), Stream::Gouji, n)
}

/// A team entering the event, with the organisation (单位) it represents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrant {
    pub team: TeamId,
    pub organisation: String,
}

/// A group (小组): its name (甲, 乙, 丙, …) and its teams in drawn order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    pub name: String,
    pub teams: Vec<TeamId>,
}

/// The name of group `i`: the ten heavenly stems (甲乙丙丁戊己庚辛壬癸), then 第11组, ….
pub fn group_name(i: usize) -> String {
    const STEMS: [&str; 10] = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"];
    STEMS
        .get(i)
        .map_or_else(|| format!("第{}组", i + 1), |s| s.to_string())
}

/// Draws `entrants` into `groups` groups.
pub fn draw_groups(entrants: &[Entrant], groups: usize, seed: &Seed) -> Result<Vec<Group>, Error> {
    if groups == 0 || groups > entrants.len() {
        return Err(Error::BadGroupCount {
            teams: entrants.len(),
            groups,
        });
    }
    let mut teams: Vec<&Entrant> = entrants.iter().collect();
    teams.sort_by(|a, b| a.team.cmp(&b.team));
    if let Some(w) = teams.windows(2).find(|w| w[0].team == w[1].team) {
        return Err(Error::DuplicateTeam {
            team: w[0].team.clone(),
        });
    }
    // Organisations with their teams, in the order a shuffle of the teams first meets them.
    let mut rng = stream(seed, 0);
    rng.shuffle(&mut teams);
    let mut organisations: Vec<(&str, Vec<&Entrant>)> = Vec::new();
    for e in &teams {
        match organisations
            .iter_mut()
            .find(|(o, _)| *o == e.organisation.as_str())
        {
            Some((_, members)) => members.push(e),
            None => organisations.push((e.organisation.as_str(), vec![e])),
        }
    }
    if let Some((o, members)) = organisations.iter().find(|(_, m)| m.len() > groups) {
        return Err(Error::Organisation {
            organisation: o.to_string(),
            teams: members.len(),
            groups,
        });
    }
    let mut out: Vec<Group> = (0..groups)
        .map(|i| Group {
            name: group_name(i),
            teams: Vec::new(),
        })
        .collect();
    for (_, members) in organisations {
        // The least-filled groups, ties in drawn order.
        let mut order: Vec<usize> = (0..groups).collect();
        rng.shuffle(&mut order);
        order.sort_by_key(|&g| out[g].teams.len());
        for (e, &g) in members.iter().zip(&order) {
            out[g].teams.push(e.team.clone());
        }
    }
    Ok(out)
}

/// One match of a knockout round: the first team drawn sits A.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The group the match is played in (the pooled groups' names joined by `+`).
    pub group: String,
    pub a: TeamId,
    pub b: TeamId,
}

/// The matches of one knockout round, and the teams with a bye (轮空) who go through.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutRound {
    pub round: u32,
    pub matches: Vec<Pairing>,
    pub byes: Vec<TeamId>,
}

/// Draws round `round` (from 1) among the teams still in, by group.
pub fn knockout_round(groups: &[Group], round: u32, seed: &Seed) -> Result<KnockoutRound, Error> {
    let left: usize = groups.iter().map(|g| g.teams.len()).sum();
    if left <= FINALISTS {
        return Err(Error::KnockoutOver { teams: left });
    }
    let mut rng = stream(seed, round);
    let mut pools: Vec<(String, Vec<TeamId>)> = groups
        .iter()
        .filter(|g| !g.teams.is_empty())
        .map(|g| {
            let mut teams = g.teams.clone();
            teams.sort();
            (g.name.clone(), teams)
        })
        .collect();
    if pools.iter().all(|(_, t)| t.len() < 2) {
        let name = pools
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join("+");
        let teams = pools.drain(..).flat_map(|(_, t)| t).collect();
        pools.push((name, teams));
    }
    for (_, teams) in &mut pools {
        rng.shuffle(teams);
    }
    // Match slots: the first of every group (in drawn order), then the second, … until enough.
    let wanted = (left - FINALISTS).min(pools.iter().map(|(_, t)| t.len() / 2).sum());
    let mut order: Vec<usize> = (0..pools.len()).collect();
    rng.shuffle(&mut order);
    let mut slots = vec![0usize; pools.len()];
    let mut taken = 0;
    'fill: for k in 0.. {
        for &p in &order {
            if taken == wanted {
                break 'fill;
            }
            if pools[p].1.len() / 2 > k {
                slots[p] += 1;
                taken += 1;
            }
        }
    }
    let mut matches = Vec::new();
    let mut byes = Vec::new();
    for ((name, teams), n) in pools.iter().zip(slots) {
        for pair in teams[..2 * n].chunks(2) {
            matches.push(Pairing {
                group: name.clone(),
                a: pair[0].clone(),
                b: pair[1].clone(),
            });
        }
        byes.extend(teams[2 * n..].iter().cloned());
    }
    Ok(KnockoutRound {
        round,
        matches,
        byes,
    })
}

/// The groups after `round`, given its `winners` (one of each match's two teams; byes go through
/// without being named).
pub fn advance(
    groups: &[Group],
    round: &KnockoutRound,
    winners: &[TeamId],
) -> Result<Vec<Group>, Error> {
    let bad = |reason: String| Err(Error::BadWinners { reason });
    for w in winners {
        if !round.matches.iter().any(|m| &m.a == w || &m.b == w) {
            return bad(format!("{w:?} played no match in round {}", round.round));
        }
    }
    let mut losers = Vec::new();
    for m in &round.matches {
        match (winners.contains(&m.a), winners.contains(&m.b)) {
            (true, false) => losers.push(&m.b),
            (false, true) => losers.push(&m.a),
            (true, true) => return bad(format!("{:?} and {:?} both won", m.a, m.b)),
            (false, false) => return bad(format!("no winner of {:?} against {:?}", m.a, m.b)),
        }
    }
    Ok(groups
        .iter()
        .map(|g| Group {
            name: g.name.clone(),
            teams: g
                .teams
                .iter()
                .filter(|t| !losers.contains(t))
                .cloned()
                .collect(),
        })
        .collect())
}

/// Draws the six finalists into groups A and B, each in its starting table order.
pub fn draw_final_groups(finalists: &[TeamId], seed: &Seed) -> Result<FinalGroups, Error> {
    let mut teams = finalists.to_vec();
    teams.sort();
    if teams.len() != FINALISTS || teams.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::FinalTeams);
    }
    stream(seed, u32::MAX).shuffle(&mut teams);
    let t = |i: usize| teams[i].clone();
    Ok(FinalGroups {
        a: [t(0), t(1), t(2)],
        b: [t(3), t(4), t(5)],
    })
}
