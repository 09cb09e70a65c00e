//! 级别 (levels) and 思考预算 (thinking budgets): how strong a computer player is and how long
//! it may think.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How strong a computer player is. On the wire: `"beginner"`, `"club"`, `"expert"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// 入门: a uniformly random legal action.
    Beginner,
    /// 普通: the heuristics club players use (counting cards, feeding points, 让, …).
    Club,
    /// 高手: determinized Monte-Carlo over the unseen cards, the 普通 policy as its playouts.
    Expert,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Beginner, Level::Club, Level::Expert];

    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Club => "club",
            Level::Expert => "expert",
        }
    }

    /// The label a player reads: 入门, 普通, 高手.
    pub fn zh(self) -> &'static str {
        match self {
            Level::Beginner => "入门",
            Level::Club => "普通",
            Level::Expert => "高手",
        }
    }

    /// The wire name or the Chinese label.
    pub fn parse(s: &str) -> Option<Level> {
        let s = s.trim();
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s) || l.zh() == s)
    }
}

/// How much an Expert may think per decision. Playouts make a decision reproducible (same view,
/// same seed, same action on any machine); time is what a table uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// At most this many playouts (one playout: one candidate action in one sampled deal,
    /// played to the end by the 普通 policy).
    Playouts(u32),
    /// Think until this much wall time has passed (at least one round of playouts).
    Time(Duration),
}

impl Budget {
    /// The default for a table: one second.
    pub const DEFAULT: Budget = Budget::Time(Duration::from_secs(1));
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

impl From<Duration> for Budget {
    fn from(d: Duration) -> Budget {
        Budget::Time(d)
    }
}

/// A bot's decision and how hard it searched for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision<A> {
    /// `None`: the seat is not to act.
    pub action: Option<A>,
    /// Playouts run (Expert only).
    pub playouts: u32,
    /// Sampled deals dropped as inconsistent with what the seat saw (Expert only).
    pub rejected: u32,
}

impl<A> Default for Decision<A> {
    fn default() -> Self {
        Decision {
            action: None,
            playouts: 0,
            rejected: 0,
        }
    }
}

impl<A> Decision<A> {
    /// A decision without search.
    pub fn plain(action: Option<A>) -> Decision<A> {
        Decision {
            action,
            playouts: 0,
            rejected: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_have_snake_case_wire_names_and_chinese_labels() {
        for (level, json, zh) in [
            (Level::Beginner, "\"beginner\"", "入门"),
            (Level::Club, "\"club\"", "普通"),
            (Level::Expert, "\"expert\"", "高手"),
        ] {
            assert_eq!(serde_json::to_string(&level).unwrap(), json);
            assert_eq!(serde_json::from_str::<Level>(json).unwrap(), level);
            assert_eq!(level.zh(), zh);
            assert_eq!(Level::parse(zh), Some(level));
            assert_eq!(Level::parse(level.name()), Some(level));
        }
        assert_eq!(Level::parse("grandmaster"), None);
    }
}
