//! 错误 (refusals): every bad input of every event function, with a stable machine code and a
//! message in Chinese and English that names what is wrong (which board, which pair, which team).

use std::fmt;

use rules::Explain;

use crate::seat::{Direction, Seat};

/// Why an event function refused its input. Nothing is computed from bad input.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    // ---- movement ----
    /// Tables, rounds and boards per round are each at least 1.
    Zero { what: &'static str },
    /// An even number of tables with the plain movement: the EW pairs would meet boards they have
    /// played half way through. The director chooses a skip or a relay.
    EvenNeedsSkipOrRelay { tables: u32 },
    /// A skip or a relay with an odd number of tables, where the plain movement works.
    OddTakesPlain { tables: u32 },
    /// More rounds than the movement has before a pair meets a pair or a board again.
    TooManyRounds { tables: u32, rounds: u32, max: u32 },
    /// The skip happens after a round from `earliest` (R − T/2) to `latest` (T/2): earlier, or
    /// later, some EW pair would meet a board it has played.
    BadSkip {
        tables: u32,
        rounds: u32,
        after: u32,
        earliest: u32,
        latest: u32,
    },
    /// Where the skip comes and the revenge round are options of the skip Mitchell only.
    SkipOptionsNeedSkip { tables: u32 },
    /// A movement card asked for a table the movement does not have.
    NoSuchTable { table: u32, tables: u32 },

    // ---- 80分 scoring ----
    /// The same pair listed twice in one direction.
    DuplicatePair { direction: Direction, pair: String },
    /// A result, deduction or disqualification names a pair not in `pairs`.
    UnknownPair { direction: Direction, pair: String },
    /// Board numbers start at 1.
    BadBoard { board: u32 },
    /// One result per board per meeting: the same two pairs with the same board twice.
    PlayedTwice { board: u32, ns: String, ew: String },
    /// A pair with two results on one board (against different opponents).
    PairPlayedBoardTwice {
        board: u32,
        direction: Direction,
        pair: String,
    },
    /// A played result needs the pairs of both directions.
    MissingPair { board: u32, direction: Direction },
    /// A result gives neither `defenders` nor `artificial`.
    NoOutcome { board: u32 },
    /// A result gives both `defenders` and `artificial`.
    TwoOutcomes { board: u32 },
    /// A played result needs its declarer seat.
    MissingDeclarer { board: u32 },
    /// 定庄: one board has one declarer seat at every table.
    DeclarerMismatch {
        board: u32,
        first: Seat,
        second: Seat,
    },
    /// Defenders' points come in fives (cards, kitty multiples and penalties all do).
    BadPoints { board: u32, defenders: i32 },
    /// Defenders' points lie within ±`max` ([`crate::score::MAX_POINTS`]): a typo of 1000 for
    /// 100 is caught. The same bound as the competition's adjusted results.
    PointsOutOfRange {
        board: u32,
        defenders: i32,
        max: i32,
    },
    /// An artificial score for a side with no pair, or none for a side with a pair.
    ArtificialSide {
        board: u32,
        direction: Direction,
        given: bool,
    },
    /// A deduction of match points must be positive and in halves (0.5 比赛分 each).
    BadDeduction {
        direction: Direction,
        pair: String,
        mp: f64,
    },

    // ---- 够级 ----
    /// The same team entered twice.
    DuplicateTeam { team: String },
    /// A result, deduction or extra game names a team that is not in the event, match or final.
    UnknownTeam { team: String },
    /// Groups: at least one, and no more groups than teams.
    BadGroupCount { teams: usize, groups: usize },
    /// 同一单位的两支代表队不分在同一个组: more teams of one organisation than groups.
    Organisation {
        organisation: String,
        teams: usize,
        groups: usize,
    },
    /// The knockout stops when the final's six (or fewer) are left.
    KnockoutOver { teams: usize },
    /// A knockout result: each match exactly one winner, one of its two teams; nothing else.
    BadWinners { reason: String },
    /// The final plays whole rotations: a positive multiple of 3 games.
    FinalGames { games: u32 },
    /// The final's groups are three teams each, six different teams.
    FinalTeams,
    /// More games reported than scheduled (a match is 6 games; the final as scheduled).
    TooManyGames { played: usize, scheduled: usize },
    /// A team deduction is a positive number of points (扣该队4分).
    BadTeamDeduction { team: String, points: i32 },
    /// An extra game between a team and itself.
    SelfExtraGame { team: String },
}

impl Explain for Error {
    fn code(&self) -> &'static str {
        match self {
            Error::Zero { .. } => "zero",
            Error::EvenNeedsSkipOrRelay { .. } => "even_needs_skip_or_relay",
            Error::OddTakesPlain { .. } => "odd_takes_plain",
            Error::TooManyRounds { .. } => "too_many_rounds",
            Error::NoSuchTable { .. } => "no_such_table",
            Error::BadSkip { .. } => "bad_skip",
            Error::SkipOptionsNeedSkip { .. } => "skip_options_need_skip",
            Error::DuplicatePair { .. } => "duplicate_pair",
            Error::UnknownPair { .. } => "unknown_pair",
            Error::BadBoard { .. } => "bad_board",
            Error::PlayedTwice { .. } => "played_twice",
            Error::PairPlayedBoardTwice { .. } => "pair_played_board_twice",
            Error::MissingPair { .. } => "missing_pair",
            Error::NoOutcome { .. } => "no_outcome",
            Error::TwoOutcomes { .. } => "two_outcomes",
            Error::MissingDeclarer { .. } => "missing_declarer",
            Error::DeclarerMismatch { .. } => "declarer_mismatch",
            Error::BadPoints { .. } => "bad_points",
            Error::PointsOutOfRange { .. } => "points_out_of_range",
            Error::ArtificialSide { .. } => "artificial_side",
            Error::BadDeduction { .. } => "bad_deduction",
            Error::DuplicateTeam { .. } => "duplicate_team",
            Error::UnknownTeam { .. } => "unknown_team",
            Error::BadGroupCount { .. } => "bad_group_count",
            Error::Organisation { .. } => "organisation",
            Error::KnockoutOver { .. } => "knockout_over",
            Error::BadWinners { .. } => "bad_winners",
            Error::FinalGames { .. } => "final_games",
            Error::FinalTeams => "final_teams",
            Error::TooManyGames { .. } => "too_many_games",
            Error::BadTeamDeduction { .. } => "bad_team_deduction",
            Error::SelfExtraGame { .. } => "self_extra_game",
        }
    }

    fn zh(&self) -> String {
        match self {
            Error::Zero { what } => format!("{what} 至少为 1"),
            Error::EvenNeedsSkipOrRelay { tables } => {
                format!("{tables} 桌是偶数：米切尔移位需要跳桌（--skip）或接力桌（--relay），由裁判长选择")
            }
            Error::OddTakesPlain { tables } => {
                format!("{tables} 桌是奇数：用普通米切尔移位，不需要跳桌或接力桌")
            }
            Error::TooManyRounds { tables, rounds, max } => format!(
                "{tables} 桌的这种移位最多 {max} 轮，要求了 {rounds} 轮：再多就会有对手重复相遇或重复打同一副牌"
            ),
            Error::NoSuchTable { table, tables } => {
                format!("没有第 {table} 桌（共 {tables} 桌）")
            }
            Error::BadSkip {
                tables,
                rounds,
                after,
                earliest,
                latest,
            } => format!(
                "{tables} 桌打 {rounds} 轮：东西跳桌要在第 {earliest} 到第 {latest} 轮之后，不能在第 {after} 轮之后（否则会有东西对重复打同一副牌）"
            ),
            Error::SkipOptionsNeedSkip { tables } => format!(
                "{tables} 桌：跳桌的时机和复仇轮只用于跳桌米切尔（--skip）"
            ),
            Error::DuplicatePair { direction, pair } => {
                format!("{}的第 {pair} 对在名单中出现了两次", direction.zh())
            }
            Error::UnknownPair { direction, pair } => {
                format!("{}没有第 {pair} 对", direction.zh())
            }
            Error::BadBoard { board } => format!("牌号 {board} 无效：牌号从 1 开始"),
            Error::PlayedTwice { board, ns, ew } => {
                format!("第 {board} 副：南北 {ns} 对东西 {ew} 的成绩登记了两次")
            }
            Error::PairPlayedBoardTwice {
                board,
                direction,
                pair,
            } => format!("第 {board} 副：{}第 {pair} 对有两个成绩，同一副牌只能打一次", direction.zh()),
            Error::MissingPair { board, direction } => {
                format!("第 {board} 副：打出的成绩缺少{}的对号", direction.zh())
            }
            Error::NoOutcome { board } => {
                format!("第 {board} 副：成绩既没有闲家得分（defenders），也没有人为分（artificial）")
            }
            Error::TwoOutcomes { board } => {
                format!("第 {board} 副：成绩不能同时有闲家得分和人为分")
            }
            Error::MissingDeclarer { board } => {
                format!("第 {board} 副：打出的成绩要写明庄家方位（declarer）")
            }
            Error::DeclarerMismatch {
                board,
                first,
                second,
            } => format!(
                "第 {board} 副：定庄，各桌庄家方位相同，却既有 {first:?} 又有 {second:?}"
            ),
            Error::BadPoints { board, defenders } => format!(
                "第 {board} 副：闲家得分 {defenders} 不是 5 的倍数（分牌、抠底和罚分都是 5 的倍数）"
            ),
            Error::PointsOutOfRange {
                board,
                defenders,
                max,
            } => format!("第 {board} 副：闲家得分 {defenders} 超出范围：应在 -{max} 到 {max} 之间"),
            Error::ArtificialSide {
                board,
                direction,
                given: true,
            } => format!("第 {board} 副：{}没有对号，不能给人为分", direction.zh()),
            Error::ArtificialSide {
                board,
                direction,
                given: false,
            } => format!("第 {board} 副：{}有对号，却没有给人为分", direction.zh()),
            Error::BadDeduction {
                direction,
                pair,
                mp,
            } => format!(
                "{}第 {pair} 对的扣分 {mp} 无效：扣分为正数，以 0.5 比赛分为单位",
                direction.zh()
            ),
            Error::DuplicateTeam { team } => format!("队伍「{team}」出现了两次"),
            Error::UnknownTeam { team } => format!("没有队伍「{team}」"),
            Error::BadGroupCount { teams, groups } => {
                format!("{teams} 支队伍不能分成 {groups} 个小组：至少 1 组，组数不多于队数")
            }
            Error::Organisation {
                organisation,
                teams,
                groups,
            } => format!(
                "「{organisation}」有 {teams} 支队伍，只有 {groups} 个小组：同一单位的两支代表队不分在同一个组"
            ),
            Error::KnockoutOver { teams } => {
                format!("只剩 {teams} 支队伍：最后 6 支队伍进行决赛，淘汰赛已结束")
            }
            Error::BadWinners { reason } => format!("淘汰赛结果有误：{reason}"),
            Error::FinalGames { games } => {
                format!("决赛 {games} 局无效：循环赛每 3 局轮转一遍，局数须为 3 的正整数倍")
            }
            Error::FinalTeams => "决赛要 A、B 两组各 3 支不同的队伍".to_string(),
            Error::TooManyGames { played, scheduled } => {
                format!("报了 {played} 局成绩，只安排了 {scheduled} 局")
            }
            Error::BadTeamDeduction { team, points } => {
                format!("队伍「{team}」的扣分 {points} 无效：扣分为正数")
            }
            Error::SelfExtraGame { team } => format!("队伍「{team}」不能和自己加赛"),
        }
    }

    fn en(&self) -> String {
        match self {
            Error::Zero { what } => format!("{what} must be at least 1"),
            Error::EvenNeedsSkipOrRelay { tables } => format!(
                "{tables} tables is even: a Mitchell needs a skip (--skip) or a relay (--relay), the director chooses"
            ),
            Error::OddTakesPlain { tables } => format!(
                "{tables} tables is odd: the plain Mitchell works, without a skip or a relay"
            ),
            Error::TooManyRounds { tables, rounds, max } => format!(
                "this movement for {tables} tables has at most {max} rounds, {rounds} asked: more would repeat an opponent or a board"
            ),
            Error::NoSuchTable { table, tables } => {
                format!("there is no table {table} (the movement has {tables})")
            }
            Error::BadSkip {
                tables,
                rounds,
                after,
                earliest,
                latest,
            } => format!(
                "{tables} tables, {rounds} rounds: the EW pairs skip after a round from {earliest} to {latest}, not after round {after} (an EW pair would meet a board again)"
            ),
            Error::SkipOptionsNeedSkip { tables } => format!(
                "{tables} tables: when to skip and the revenge round are options of the skip Mitchell (--skip) only"
            ),
            Error::DuplicatePair { direction, pair } => {
                format!("{} pair {pair} is listed twice", direction.name())
            }
            Error::UnknownPair { direction, pair } => {
                format!("unknown pair: {} has no pair {pair}", direction.name())
            }
            Error::BadBoard { board } => format!("board {board}: boards are numbered from 1"),
            Error::PlayedTwice { board, ns, ew } => {
                format!("board {board} played twice by the same pairs: NS {ns} against EW {ew}")
            }
            Error::PairPlayedBoardTwice {
                board,
                direction,
                pair,
            } => format!(
                "board {board}: {} pair {pair} has two results; a pair plays a board once",
                direction.name()
            ),
            Error::MissingPair { board, direction } => {
                format!(
                    "board {board}: a played result needs its {} pair",
                    direction.name()
                )
            }
            Error::NoOutcome { board } => format!(
                "board {board}: a result needs either `defenders` or `artificial`"
            ),
            Error::TwoOutcomes { board } => format!(
                "board {board}: a result has either `defenders` or `artificial`, not both"
            ),
            Error::MissingDeclarer { board } => {
                format!("board {board}: a played result needs its `declarer` seat")
            }
            Error::DeclarerMismatch {
                board,
                first,
                second,
            } => format!(
                "board {board}: the declarer is fixed per board, but results say both {first:?} and {second:?}"
            ),
            Error::BadPoints { board, defenders } => format!(
                "board {board}: defenders' points {defenders} are not a multiple of 5 (cards, kitty and penalties all are)"
            ),
            Error::PointsOutOfRange {
                board,
                defenders,
                max,
            } => format!(
                "board {board}: defenders' points {defenders} are out of range: -{max} to {max}"
            ),
            Error::ArtificialSide {
                board,
                direction,
                given: true,
            } => format!(
                "board {board}: an artificial score for {} but no {} pair",
                direction.name(),
                direction.name()
            ),
            Error::ArtificialSide {
                board,
                direction,
                given: false,
            } => format!(
                "board {board}: the {} pair has no artificial score",
                direction.name()
            ),
            Error::BadDeduction {
                direction,
                pair,
                mp,
            } => format!(
                "{} pair {pair}: deduction {mp} is not a positive multiple of 0.5 match points",
                direction.name()
            ),
            Error::DuplicateTeam { team } => format!("team {team:?} is entered twice"),
            Error::UnknownTeam { team } => format!("unknown team {team:?}"),
            Error::BadGroupCount { teams, groups } => format!(
                "{teams} teams cannot make {groups} groups: at least one group, no more groups than teams"
            ),
            Error::Organisation {
                organisation,
                teams,
                groups,
            } => format!(
                "{organisation:?} has {teams} teams but there are {groups} groups: teams of one organisation are never in the same group"
            ),
            Error::KnockoutOver { teams } => format!(
                "{teams} teams left: the last 6 play the final, the knockout is over"
            ),
            Error::BadWinners { reason } => format!("knockout results: {reason}"),
            Error::FinalGames { games } => format!(
                "a final of {games} games: the rotation takes 3 games, so a positive multiple of 3"
            ),
            Error::FinalTeams => {
                "the final needs groups A and B of 3 teams each, six different teams".to_string()
            }
            Error::TooManyGames { played, scheduled } => {
                format!("{played} games reported, {scheduled} scheduled")
            }
            Error::BadTeamDeduction { team, points } => format!(
                "team {team:?}: deduction {points} is not a positive number of points"
            ),
            Error::SelfExtraGame { team } => {
                format!("team {team:?} cannot play an extra game against itself")
            }
        }
    }
}

/// An error as the CLI prints it and the server sends it: `{"code":…,"zh":…,"en":…}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ErrorWire {
    pub code: String,
    pub zh: String,
    pub en: String,
}

impl Error {
    pub fn wire(&self) -> ErrorWire {
        ErrorWire {
            code: self.code().to_string(),
            zh: self.zh(),
            en: self.en(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.en(), self.zh())
    }
}

impl std::error::Error for Error {}
