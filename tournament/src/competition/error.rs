//! 拒绝 (refusals of a competition): every step the log, the director, a pair or a team may ask
//! for and the competition does not allow now, with a stable code and words in Chinese and
//! English that say which round, table, pair or team and why. Each says whether the request is
//! wrong in itself ([`Refused::Invalid`]), right but not now ([`Refused::NotNow`]), or a sign
//! that the server's own records disagree ([`Refused::Broken`]): the server answers 400, 409 or
//! 500 from that, never from the words.

use std::fmt;

use rules::name::NameFault;
use rules::Explain;

use crate::seat::Direction;

/// How a refusal is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The request is wrong in itself (HTTP 400).
    Invalid,
    /// Right, but not in the competition's present state (HTTP 409).
    NotNow,
    /// The server's records disagree with themselves (HTTP 500): a bug or a damaged log.
    Broken,
}

/// A text the director or a captain types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Name,
    Organisation,
    TeamName,
    Reason,
    Note,
}

impl Field {
    fn zh(self) -> &'static str {
        match self {
            Field::Name => "比赛名称",
            Field::Organisation => "单位",
            Field::TeamName => "队名",
            Field::Reason => "理由",
            Field::Note => "说明",
        }
    }

    fn en(self) -> &'static str {
        match self {
            Field::Name => "the competition's name",
            Field::Organisation => "the organisation",
            Field::TeamName => "the team's name",
            Field::Reason => "the reason",
            Field::Note => "the note",
        }
    }
}

/// Why a competition refused a step. Nothing changed.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    // ---- the competition as a whole ----
    /// The seed is revealed: nothing changes any more.
    Finished,
    /// A second `create`.
    Exists,
    /// This server runs no competition of this game live.
    NotRunLive { game: String },
    /// A movement, draw or scoring refusal of the tournament library.
    Tournament(crate::Error),
    /// A typed text is empty or too long.
    Text { field: Field, max: usize },
    /// A player's name.
    Name(NameFault),
    /// 80分: a level that is not a rank.
    Level { level: String },
    /// 80分: a trump that is not a suit or NT.
    Trump { trump: String },
    /// 够级 has no level or trump.
    NothingToFix,
    /// 80分: 1 to `max` tables.
    TableCount { max: u32 },
    /// 80分: the movement deals more boards than a competition may.
    TooManyBoards { boards: u32, max: u32 },
    /// 80分: 1 to 120 minutes a board.
    BoardMinutes,

    // ---- entries ----
    /// Entries change only before round 1.
    EntriesClosed,
    /// Nothing can start before the entries are in.
    NoEntries { teams: bool },
    /// 80分: two pairs a table (one fewer: a half table).
    PairCount { tables: u32, got: usize },
    /// 80分: a pair is two players.
    PairIsTwo { direction: Direction, number: u32 },
    /// 够级: the number of teams.
    TeamCount { got: usize, min: usize, max: usize },
    /// 够级: a team is three players.
    TeamIsThree { number: u32 },
    /// 够级: two teams of one name.
    TeamNameTwice { name: String },

    // ---- rounds ----
    /// Rounds start in order, each after the last one closed.
    CannotStart { round: u32, last: u32, last_closed: bool },
    /// 80分: past the rounds created.
    NoSuchRound { rounds: u32 },
    /// That round is not the one being played.
    NotPlaying { round: u32 },
    /// No round is being played.
    NoRound,
    /// That round has not started.
    NotStarted { round: u32 },
    /// 80分: boards of these tables have no result.
    Unfinished { tables: Vec<u32> },
    /// 80分: these tables' results are not confirmed by both pairs (or disputed).
    Unconfirmed { tables: Vec<u32> },
    /// 80分 finishing early: only between rounds.
    EarlyMidRound,
    /// 80分: rounds still open.
    RoundsOpen { closed: u32, rounds: u32 },

    // ---- 80分 pairs and boards ----
    /// No such pair.
    NoSuchPair { direction: Direction, pair: u32 },
    /// That seat is not the pair's.
    NotPairsSeat { seat: usize },
    /// That table does not play that board in that round.
    NotThisBoard { round: u32, table: u32, board: u32 },
    /// A result from a table that is not the board's.
    WrongTable,
    /// An adjusted result: points or artificial scores, one of them.
    AdjustOneWay,
    /// Defenders' points come in fives.
    AdjustPoints { defenders: i32 },
    /// A sit-out has no opponents: only an artificial score.
    SitOutArtificialOnly,
    /// A half table's artificial score goes to the side that is there only.
    ArtificialHalf,
    /// An artificial result names both sides.
    ArtificialBoth,
    /// Not A, A+ or A−.
    BadArtificial { given: String },
    /// Match points off come in halves.
    BadDeduction { mp: f64 },
    /// Disqualified once is enough.
    Disqualified { direction: Direction, pair: u32 },
    /// The table has boards to play.
    TableUnfinished,
    /// EW checks what NS recorded.
    NsFirst,
    /// A dispute says what is wrong.
    DisputeNeedsNote,
    /// Lateness: a computer pair is never late.
    ComputerOnTime,
    /// Lateness: the pair plays no table this round.
    PairIdle,
    /// Lateness: a sit-out cannot be late.
    SitOutNotLate,
    /// Lateness: the round's start was not logged.
    NoRoundClock,
    /// Lateness: less than ten minutes since the start.
    NotLateYet { minutes_left: u64 },
    /// Lateness: the pair sat down in time.
    SeatedInTime { direction: Direction, pair: u32 },
    /// Lateness: ruled once already.
    Forfeited { direction: Direction, pair: u32 },

    // ---- a player's own steps ----
    /// The pair or team may not play any more.
    Barred,
    /// No round is being played: the director starts the next one.
    WaitForRound,
    /// The pair sits this round out.
    SitsOut,
    /// A half table: the pair sits out with an average.
    SitsOutHalf,
    /// The pair was ruled late and forfeited the round.
    LateForfeit,
    /// Every board of the round is played: confirm the results.
    RoundPlayed,
    /// The table is being opened.
    Opening,
    /// 够级: the team plays no match this round.
    TeamIdle,
    /// 够级: the team's next game is not open (or the round is over).
    NextGameNotOpen,

    // ---- 够级 teams, matches, games ----
    /// The final's games: a multiple of 3 from 3 to 30.
    FinalGameCount { games: u32 },
    /// At least one group.
    NoGroups,
    /// The final is drawn: no next round.
    FinalDrawn,
    /// A logged draw that does not fit the competition.
    DrawMismatch { why: &'static str },
    /// The round is drawn already.
    Drawn,
    /// That table does not play that game now.
    GameNotNow { round: u32, table: u32, game: u32 },
    /// A result from a table that is not the game's, or for a game that has one.
    WrongGameTable,
    /// A ruled result out of every range the rules produce.
    GameResultRange { most: i32 },
    /// A ruling replaces a finished game's result.
    GameUnfinished { round: u32, table: u32, game: u32 },
    /// No team of that number.
    NoSuchTeam { team: u32 },
    /// A captain signs finished games.
    NoFinishedGame { team: String },
    /// The team plays no match this round.
    TeamNotPlaying { team: String },
    /// A team deduction is 1 to 100 points.
    TeamDeduction { points: i32 },
    /// Lots decide knockout matches only.
    LotKnockoutOnly,
    /// No match at that table.
    NoMatch { round: u32, table: u32 },
    /// The lot's winner is not a team of the match.
    NotInMatch { winner: String, table: u32, a: String, b: String },
    /// The lot was drawn.
    LotDrawn { table: u32 },
    /// Play can still decide the match.
    LotNotNeeded { table: u32, extra_games: u32 },
    /// The round has games without a result, or an extra game to play.
    RoundIncomplete { round: u32 },
    /// These games are not signed by both captains (or disputed).
    GamesUnconfirmed { games: Vec<(u32, u32)> },
    /// 够级 has no early finish.
    NoEarlyFinish,
    /// The final is not closed.
    FinalOpen,
}

impl Error {
    /// How the refusal is answered.
    pub fn refused(&self) -> Refused {
        use Error::*;
        match self {
            DrawMismatch { .. } => Refused::Broken,
            Finished | Exists | EntriesClosed | NoEntries { .. } | CannotStart { .. }
            | NoSuchRound { .. } | NotPlaying { .. } | NoRound | NotStarted { .. }
            | Unfinished { .. } | Unconfirmed { .. } | EarlyMidRound | RoundsOpen { .. }
            | WrongTable | Disqualified { .. } | TableUnfinished | NsFirst | PairIdle
            | SitOutNotLate | NoRoundClock | NotLateYet { .. } | SeatedInTime { .. }
            | Forfeited { .. } | Barred | WaitForRound | SitsOut | SitsOutHalf | LateForfeit
            | RoundPlayed | Opening | TeamIdle | NextGameNotOpen | FinalDrawn | Drawn
            | GameNotNow { .. } | WrongGameTable | GameUnfinished { .. }
            | NoFinishedGame { .. } | TeamNotPlaying { .. } | LotKnockoutOnly | LotDrawn { .. }
            | LotNotNeeded { .. } | RoundIncomplete { .. } | GamesUnconfirmed { .. }
            | FinalOpen => Refused::NotNow,
            _ => Refused::Invalid,
        }
    }
}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Error {
        Error::Tournament(e)
    }
}

impl From<NameFault> for Error {
    fn from(f: NameFault) -> Error {
        Error::Name(f)
    }
}

/// `[1, 2]` as `1、2` (Chinese) or `1, 2`.
fn list(items: &[u32], sep: &str) -> String {
    items
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

fn games(items: &[(u32, u32)], sep: &str) -> String {
    items
        .iter()
        .map(|(t, g)| format!("{t}-{g}"))
        .collect::<Vec<_>>()
        .join(sep)
}

impl Explain for Error {
    fn code(&self) -> &'static str {
        use Error::*;
        match self {
            Finished => "competition_finished",
            Exists => "competition_exists",
            NotRunLive { .. } => "not_run_live",
            Tournament(e) => e.code(),
            Text { .. } => "bad_text",
            Name(f) => f.code(),
            Level { .. } => "bad_level",
            Trump { .. } => "bad_trump",
            NothingToFix => "nothing_to_fix",
            TableCount { .. } => "table_count",
            TooManyBoards { .. } => "too_many_boards",
            BoardMinutes => "board_minutes",
            EntriesClosed => "entries_closed",
            NoEntries { .. } => "no_entries",
            PairCount { .. } => "pair_count",
            PairIsTwo { .. } => "pair_is_two",
            TeamCount { .. } => "team_count",
            TeamIsThree { .. } => "team_is_three",
            TeamNameTwice { .. } => "team_name_twice",
            CannotStart { .. } => "round_cannot_start",
            NoSuchRound { .. } => "no_such_round",
            NotPlaying { .. } => "round_not_playing",
            NoRound => "no_round",
            NotStarted { .. } => "round_not_started",
            Unfinished { .. } => "boards_unfinished",
            Unconfirmed { .. } => "results_unconfirmed",
            EarlyMidRound => "early_mid_round",
            RoundsOpen { .. } => "rounds_open",
            NoSuchPair { .. } => "no_such_pair",
            NotPairsSeat { .. } => "not_pairs_seat",
            NotThisBoard { .. } => "not_this_board",
            WrongTable => "wrong_table",
            AdjustOneWay => "adjust_one_way",
            AdjustPoints { .. } => "adjust_points",
            SitOutArtificialOnly => "sit_out_artificial_only",
            ArtificialHalf => "artificial_half",
            ArtificialBoth => "artificial_both",
            BadArtificial { .. } => "bad_artificial",
            BadDeduction { .. } => "bad_deduction",
            Disqualified { .. } => "disqualified",
            TableUnfinished => "table_unfinished",
            NsFirst => "ns_first",
            DisputeNeedsNote => "dispute_needs_note",
            ComputerOnTime => "computer_on_time",
            PairIdle => "pair_idle",
            SitOutNotLate => "sit_out_not_late",
            NoRoundClock => "no_round_clock",
            NotLateYet { .. } => "not_late_yet",
            SeatedInTime { .. } => "seated_in_time",
            Forfeited { .. } => "forfeited",
            Barred => "barred",
            WaitForRound => "wait_for_round",
            SitsOut => "sits_out",
            SitsOutHalf => "sits_out_half",
            LateForfeit => "late_forfeit",
            RoundPlayed => "round_played",
            Opening => "table_opening",
            TeamIdle => "team_idle",
            NextGameNotOpen => "next_game_not_open",
            FinalGameCount { .. } => "final_game_count",
            NoGroups => "no_groups",
            FinalDrawn => "final_drawn",
            DrawMismatch { .. } => "draw_mismatch",
            Drawn => "drawn",
            GameNotNow { .. } => "game_not_now",
            WrongGameTable => "wrong_game_table",
            GameResultRange { .. } => "game_result_range",
            GameUnfinished { .. } => "game_unfinished",
            NoSuchTeam { .. } => "no_such_team",
            NoFinishedGame { .. } => "no_finished_game",
            TeamNotPlaying { .. } => "team_not_playing",
            TeamDeduction { .. } => "team_deduction",
            LotKnockoutOnly => "lot_knockout_only",
            NoMatch { .. } => "no_match",
            NotInMatch { .. } => "not_in_match",
            LotDrawn { .. } => "lot_drawn",
            LotNotNeeded { .. } => "lot_not_needed",
            RoundIncomplete { .. } => "round_incomplete",
            GamesUnconfirmed { .. } => "games_unconfirmed",
            NoEarlyFinish => "no_early_finish",
            FinalOpen => "final_open",
        }
    }

    fn zh(&self) -> String {
        use Error::*;
        match self {
            Finished => "比赛已结束（种子已公布），不能再改".into(),
            Exists => "比赛已经建立".into(),
            NotRunLive { game } => format!(
                "「{game}」的比赛还不能在线进行：只有 80分 双人赛（shengji）和够级团体赛（gouji）"
            ),
            Tournament(e) => e.zh(),
            Text { field, max } => format!("{}要 1 到 {max} 个字", field.zh()),
            Name(f) => f.zh(),
            Level { level } => format!("级数「{level}」不对：应为 2–10、J、Q、K、A"),
            Trump { trump } => format!("主「{trump}」不对：应为 S、H、D、C 或 NT（无主）"),
            NothingToFix => "够级没有定级和定主".into(),
            TableCount { max } => format!("桌数要 1 到 {max}"),
            TooManyBoards { boards, max } => format!("最多 {max} 副牌，这样要 {boards} 副"),
            BoardMinutes => "每副牌的时间要 1 到 120 分钟".into(),
            EntriesClosed => "第一轮已开始，不能再改报名".into(),
            NoEntries { teams: false } => "还没有报名：请先登记各对".into(),
            NoEntries { teams: true } => "还没有报名：请先登记各队".into(),
            PairCount { tables: t, got } => format!(
                "{t} 桌要报 {} 对（南北 {t} 对、东西 {t} 对；少一对为半桌），收到 {got} 对",
                2 * t
            ),
            PairIsTwo { direction, number } => {
                format!("{}{number}：一对是两位选手", direction.zh())
            }
            TeamCount { got, min, max } => {
                format!("够级比赛要 {min} 到 {max} 支队（决赛 6 队），收到 {got} 支")
            }
            TeamIsThree { number } => format!("第 {number} 队：一队是三位选手"),
            TeamNameTwice { name } => format!("队名「{name}」重复了"),
            CannotStart { last, last_closed: true, .. } => {
                format!("现在只能开始第 {} 轮（第 {last} 轮已结束）", last + 1)
            }
            CannotStart { last, .. } => {
                format!("现在只能开始第 {} 轮（第 {last} 轮还没结束）", last + 1)
            }
            NoSuchRound { rounds } => format!("比赛只有 {rounds} 轮"),
            NotPlaying { round } => format!("第 {round} 轮没有在进行"),
            NoRound => "现在没有进行中的一轮".into(),
            NotStarted { round } => format!("第 {round} 轮还没开始"),
            Unfinished { tables } => format!("这些桌还有牌没有成绩：{}", list(tables, "、")),
            Unconfirmed { tables } => format!(
                "这些桌的成绩还没有双方确认（或有异议）：{}；裁判长可强制结束本轮",
                list(tables, "、")
            ),
            EarlyMidRound => "提前结束要在某一轮结束之后（没有进行中的一轮）".into(),
            RoundsOpen { closed, rounds } => format!(
                "还有轮次没结束（已结束 {closed} / {rounds} 轮）：最后一副打完、各轮结束后才公布种子（或提前结束比赛）"
            ),
            NoSuchPair { direction, pair } => format!("{}没有第 {pair} 对", direction.zh()),
            NotPairsSeat { seat } => format!("{seat} 号座位不是这一对的"),
            NotThisBoard { round, table, board } => {
                format!("第 {round} 轮第 {table} 桌不打第 {board} 副")
            }
            WrongTable => "这张牌桌不是这副牌的".into(),
            AdjustOneWay => "调整成绩要么给闲家得分，要么给人为分".into(),
            AdjustPoints { defenders } => format!("闲家得分 {defenders} 不对：应为 5 的倍数"),
            SitOutArtificialOnly => "半桌：轮空的一桌没有对手，只能给人为分".into(),
            ArtificialHalf => "半桌：人为分只给在场的一方（空位一方不给）".into(),
            ArtificialBoth => "人为分要给双方（例如南北 A+、东西 A-）".into(),
            BadArtificial { given } => format!("人为分「{given}」不对：应为 A、A+ 或 A-"),
            BadDeduction { mp } => format!("扣分 {mp} 不对：应为 0.5 的正整数倍"),
            Disqualified { direction, pair } => {
                format!("{}第 {pair} 对已被取消资格", direction.zh())
            }
            TableUnfinished => "本桌这一轮的牌还没打完".into(),
            NsFirst => "请南北先填写确认成绩，东西再核对".into(),
            DisputeNeedsNote => "有异议请写明情况，裁判会来处理".into(),
            ComputerOnTime => "电脑对总是准时入座".into(),
            PairIdle => "这一轮这一对不打".into(),
            SitOutNotLate => "半桌：这一对本轮轮空，无所谓迟到".into(),
            NoRoundClock => "这一轮的开始时间没有记录，不能判迟到".into(),
            NotLateYet { minutes_left } => {
                format!("本轮开始还不到 10 分钟（还有约 {minutes_left} 分钟），不能判迟到")
            }
            SeatedInTime { direction, pair } => {
                format!("{}第 {pair} 对已按时入座（开始后 10 分钟内）", direction.zh())
            }
            Forfeited { direction, pair } => format!("{}第 {pair} 对本轮已判弃权", direction.zh()),
            Barred => "您已被裁判长取消比赛资格，不能再入座".into(),
            WaitForRound => "现在没有进行中的一轮：请等裁判长开始下一轮".into(),
            SitsOut => "这一轮您轮空".into(),
            SitsOutHalf => {
                "半桌：这一轮您的对手是空位，您轮空，每副得平均分 A".into()
            }
            LateForfeit => "您这一对迟到超过10分钟，本轮已判弃权；请等下一轮".into(),
            RoundPlayed => "本轮的牌都打完了：请确认成绩".into(),
            Opening => "牌桌正在打开，请稍候再试".into(),
            TeamIdle => "这一轮您队没有比赛（轮空或已淘汰）".into(),
            NextGameNotOpen => {
                "下一局的牌桌还没打开（或本轮已打完）：请稍候再试".into()
            }
            FinalGameCount { games } => format!(
                "决赛局数 {games} 不对：应为 3 的倍数（3 到 30），每 3 局 A 组每队与 B 组每队各赛一局"
            ),
            NoGroups => "小组数至少为 1".into(),
            FinalDrawn => "决赛已经开始：没有下一轮".into(),
            DrawMismatch { .. } => "抽签结果与比赛不符".into(),
            Drawn => "这一轮已经抽过签".into(),
            GameNotNow { round, table, game } => {
                format!("第 {round} 轮第 {table} 桌现在不打第 {game} 局")
            }
            WrongGameTable => "这张牌桌不是这一局的，或这一局已有成绩".into(),
            GameResultRange { most } => {
                format!("成绩不对：每队得分应在 -{most} 到 {most} 之间，大落最多 6 个")
            }
            GameUnfinished { round, table, game } => {
                format!("第 {round} 轮第 {table} 桌第 {game} 局还没有成绩：打完才能改判")
            }
            NoSuchTeam { team } => format!("没有第 {team} 队"),
            NoFinishedGame { team } => format!("「{team}」这一轮还没有打完的局"),
            TeamNotPlaying { team } => format!("「{team}」这一轮没有比赛"),
            TeamDeduction { points } => format!("扣分 {points} 不对：应为 1 到 100"),
            LotKnockoutOnly => {
                "抽签只用于淘汰赛：决赛加赛用完仍并列的队伍名次并列".into()
            }
            NoMatch { round, table } => format!("第 {round} 轮没有第 {table} 桌的对阵"),
            NotInMatch { winner, table, a, b } => {
                format!("「{winner}」不是第 {table} 桌对阵的一方（{a} 对 {b}）")
            }
            LotDrawn { table } => format!("第 {table} 桌已经抽过签"),
            LotNotNeeded { table, extra_games } => format!(
                "第 {table} 桌的对阵还能由比赛决定：{extra_games} 局加赛都打完仍不分胜负才抽签"
            ),
            RoundIncomplete { round } => {
                format!("第 {round} 轮还有局没有成绩（或还要加赛）")
            }
            GamesUnconfirmed { games: g } => format!(
                "这些局（桌-局）的成绩还没有双方队长确认（或有异议）：{}；裁判长可强制结束本轮",
                games(g, "、")
            ),
            NoEarlyFinish => {
                "够级比赛不能提前结束：决赛定出名次后才公布种子".into()
            }
            FinalOpen => "决赛还没有结束：决赛结束后才公布种子".into(),
        }
    }

    fn en(&self) -> String {
        use Error::*;
        match self {
            Finished => {
                "the competition is finished (the seed is revealed): nothing more can change".into()
            }
            Exists => "the competition exists".into(),
            NotRunLive { game } => format!(
                "competitions of \"{game}\" are not run live: only 80分 duplicate pairs (shengji) and 够级 teams (gouji)"
            ),
            Tournament(e) => e.en(),
            Text { field, max } => format!("{} must be 1 to {max} characters", field.en()),
            Name(f) => f.en(),
            Level { level } => format!("level \"{level}\" is not a rank (2-10, J, Q, K, A)"),
            Trump { trump } => format!("trump \"{trump}\" is not S, H, D, C or NT"),
            NothingToFix => "够级 has no level or trump to fix".into(),
            TableCount { max } => format!("tables must be 1 to {max}"),
            TooManyBoards { boards, max } => {
                format!("at most {max} boards; this needs {boards}")
            }
            BoardMinutes => "minutes a board must be 1 to 120".into(),
            EntriesClosed => "round 1 has started: the entries can no longer change".into(),
            NoEntries { teams: false } => "no pairs registered yet".into(),
            NoEntries { teams: true } => "no teams registered yet".into(),
            PairCount { tables: t, got } => format!(
                "{t} tables need {} pairs (NS 1–{t}, then EW 1–{t}; one fewer makes a half table); got {got}",
                2 * t
            ),
            PairIsTwo { direction, number } => {
                format!("{} {number}: a pair is two players", direction.name())
            }
            TeamCount { got, min, max } => format!(
                "a 够级 competition needs {min} to {max} teams (six play the final); got {got}"
            ),
            TeamIsThree { number } => format!("team {number}: a team is three players"),
            TeamNameTwice { name } => format!("two teams are named \"{name}\""),
            CannotStart { round, last, last_closed: true } => {
                format!("round {round} cannot start now: the next round is {}", last + 1)
            }
            CannotStart { round, last, .. } => {
                format!("round {round} cannot start now: round {last} is not closed")
            }
            NoSuchRound { rounds } => format!("the competition has {rounds} rounds"),
            NotPlaying { round } => format!("round {round} is not being played"),
            NoRound => "no round is being played".into(),
            NotStarted { round } => format!("round {round} has not started"),
            Unfinished { tables } => format!(
                "these tables have boards without a result: {}",
                list(tables, ", ")
            ),
            Unconfirmed { tables } => format!(
                "these tables' results are not confirmed by both pairs (or disputed): {}; the director may force the close",
                list(tables, ", ")
            ),
            EarlyMidRound => {
                "finishing early needs a closed round and no round being played".into()
            }
            RoundsOpen { closed, rounds } => format!(
                "rounds are still open ({closed} of {rounds} closed): the seed is revealed once every round is closed (or finish early)"
            ),
            NoSuchPair { direction, pair } => format!("{} has no pair {pair}", direction.name()),
            NotPairsSeat { seat } => format!("seat {seat} is not the pair's"),
            NotThisBoard { round, table, board } => {
                format!("table {table} does not play board {board} in round {round}")
            }
            WrongTable => "that table does not deal this board here".into(),
            AdjustOneWay => {
                "an adjusted result has either defenders' points or artificial scores".into()
            }
            AdjustPoints { defenders } => {
                format!("defenders' points {defenders}: not a multiple of 5")
            }
            SitOutArtificialOnly => {
                "a half table: a sit-out has no opponents; only an artificial score can be given"
                    .into()
            }
            ArtificialHalf => {
                "a half table: the artificial score goes to the side that has a pair only".into()
            }
            ArtificialBoth => {
                "an artificial result gives both sides a score (e.g. NS A+, EW A-)".into()
            }
            BadArtificial { given } => format!("artificial score \"{given}\" is not A, A+ or A-"),
            BadDeduction { mp } => {
                format!("a deduction of {mp}: must be a positive multiple of 0.5")
            }
            Disqualified { direction, pair } => {
                format!("{} pair {pair} is disqualified already", direction.name())
            }
            TableUnfinished => "the boards of this table are not all played yet".into(),
            NsFirst => "NS record the results first; then EW check them".into(),
            DisputeNeedsNote => "a dispute needs a note: the referee comes to settle it".into(),
            ComputerOnTime => "a computer pair is always seated in time".into(),
            PairIdle => "the pair does not play this round".into(),
            SitOutNotLate => "a half table: the pair sits out this round; it cannot be late".into(),
            NoRoundClock => {
                "this round's start time was not logged: lateness cannot be judged".into()
            }
            NotLateYet { minutes_left } => format!(
                "the round started less than 10 minutes ago (about {minutes_left} minutes to go): not late yet"
            ),
            SeatedInTime { direction, pair } => format!(
                "{} pair {pair} was seated in time (within 10 minutes of the start)",
                direction.name()
            ),
            Forfeited { direction, pair } => format!(
                "{} pair {pair} has forfeited this round already",
                direction.name()
            ),
            Barred => "you have been disqualified by the director and play no more".into(),
            WaitForRound => {
                "no round is being played: wait for the director to start the next one".into()
            }
            SitsOut => "your pair sits this round out".into(),
            SitsOutHalf => "a half table: your opponents this round are the phantom; you sit out with an average (A) on each board".into(),
            LateForfeit => "your pair was more than 10 minutes late and has forfeited this round; wait for the next one".into(),
            RoundPlayed => "every board of this round is played: confirm the results".into(),
            Opening => "the table is opening: try again in a moment".into(),
            TeamIdle => "your team plays no match this round (a bye, or out)".into(),
            NextGameNotOpen => {
                "the next game's table is not open (or the round is over): try again in a moment"
                    .into()
            }
            FinalGameCount { games } => format!(
                "{games} final games: must be a multiple of 3 (3 to 30), so that every A team meets every B team equally often"
            ),
            NoGroups => "at least one group".into(),
            FinalDrawn => "the final has been drawn: there is no next round".into(),
            DrawMismatch { why } => format!("the draw does not fit the competition: {why}"),
            Drawn => "that round is drawn already".into(),
            GameNotNow { round, table, game } => {
                format!("table {table} of round {round} does not play game {game} now")
            }
            WrongGameTable => {
                "that table does not deal this game here, or the game has its result".into()
            }
            GameResultRange { most } => {
                format!("a result of -{most} to {most} points a team and at most 6 大落")
            }
            GameUnfinished { round, table, game } => format!(
                "game {game} at table {table} of round {round} has no result yet: a ruling replaces a finished game's"
            ),
            NoSuchTeam { team } => format!("no team {team}"),
            NoFinishedGame { team } => format!("\"{team}\" has no finished game this round yet"),
            TeamNotPlaying { team } => format!("\"{team}\" plays no match this round"),
            TeamDeduction { points } => {
                format!("a deduction of {points}: must be 1 to 100 points")
            }
            LotKnockoutOnly => "lots are for knockout matches: teams of the final still level after its extra games share their place".into(),
            NoMatch { round, table } => format!("round {round} has no match at table {table}"),
            NotInMatch { winner, table, a, b } => {
                format!("\"{winner}\" is not a team of the match at table {table} ({a} v {b})")
            }
            LotDrawn { table } => format!("the match at table {table} has had its lot drawn"),
            LotNotNeeded { table, extra_games } => format!(
                "the match at table {table} can still be decided by play: lots are drawn only once its {extra_games} extra games have left it level"
            ),
            RoundIncomplete { round } => format!(
                "round {round} has games without a result (or an extra game to play)"
            ),
            GamesUnconfirmed { games: g } => format!(
                "these games (table-game) are not confirmed by both captains (or disputed): {}; the director may force the close",
                games(g, ", ")
            ),
            NoEarlyFinish => "a 够级 competition cannot finish early: the seed is revealed once the final is closed".into(),
            FinalOpen => "the final is not closed yet: the seed is revealed once it is".into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.en(), self.zh())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_words_in_both_languages_and_a_code_of_its_own() {
        let d = Direction::NS;
        let all = vec![
            Error::Finished,
            Error::Exists,
            Error::NotRunLive { game: "x".into() },
            Error::Text {
                field: Field::Reason,
                max: 200,
            },
            Error::Level { level: "Z".into() },
            Error::Trump { trump: "Z".into() },
            Error::NothingToFix,
            Error::TableCount { max: 500 },
            Error::TooManyBoards {
                boards: 3000,
                max: 2000,
            },
            Error::BoardMinutes,
            Error::EntriesClosed,
            Error::NoEntries { teams: false },
            Error::PairCount { tables: 3, got: 2 },
            Error::PairIsTwo {
                direction: d,
                number: 1,
            },
            Error::TeamCount {
                got: 2,
                min: 6,
                max: 300,
            },
            Error::TeamIsThree { number: 1 },
            Error::TeamNameTwice { name: "x".into() },
            Error::CannotStart {
                round: 3,
                last: 1,
                last_closed: true,
            },
            Error::NoSuchRound { rounds: 2 },
            Error::NotPlaying { round: 1 },
            Error::NoRound,
            Error::NotStarted { round: 2 },
            Error::Unfinished { tables: vec![1, 2] },
            Error::Unconfirmed { tables: vec![1] },
            Error::EarlyMidRound,
            Error::RoundsOpen {
                closed: 1,
                rounds: 2,
            },
            Error::NoSuchPair {
                direction: d,
                pair: 9,
            },
            Error::NotPairsSeat { seat: 1 },
            Error::NotThisBoard {
                round: 1,
                table: 1,
                board: 9,
            },
            Error::WrongTable,
            Error::AdjustOneWay,
            Error::AdjustPoints { defenders: 3 },
            Error::SitOutArtificialOnly,
            Error::ArtificialHalf,
            Error::ArtificialBoth,
            Error::BadArtificial { given: "B".into() },
            Error::BadDeduction { mp: 0.3 },
            Error::Disqualified {
                direction: d,
                pair: 1,
            },
            Error::TableUnfinished,
            Error::NsFirst,
            Error::DisputeNeedsNote,
            Error::ComputerOnTime,
            Error::PairIdle,
            Error::SitOutNotLate,
            Error::NoRoundClock,
            Error::NotLateYet { minutes_left: 3 },
            Error::SeatedInTime {
                direction: d,
                pair: 1,
            },
            Error::Forfeited {
                direction: d,
                pair: 1,
            },
            Error::Barred,
            Error::WaitForRound,
            Error::SitsOut,
            Error::SitsOutHalf,
            Error::LateForfeit,
            Error::RoundPlayed,
            Error::Opening,
            Error::TeamIdle,
            Error::NextGameNotOpen,
            Error::FinalGameCount { games: 4 },
            Error::NoGroups,
            Error::FinalDrawn,
            Error::DrawMismatch { why: "x" },
            Error::Drawn,
            Error::GameNotNow {
                round: 1,
                table: 1,
                game: 2,
            },
            Error::WrongGameTable,
            Error::GameResultRange { most: 100 },
            Error::GameUnfinished {
                round: 1,
                table: 1,
                game: 1,
            },
            Error::NoSuchTeam { team: 9 },
            Error::NoFinishedGame { team: "x".into() },
            Error::TeamNotPlaying { team: "x".into() },
            Error::TeamDeduction { points: 0 },
            Error::LotKnockoutOnly,
            Error::NoMatch { round: 1, table: 9 },
            Error::NotInMatch {
                winner: "x".into(),
                table: 1,
                a: "a".into(),
                b: "b".into(),
            },
            Error::LotDrawn { table: 1 },
            Error::LotNotNeeded {
                table: 1,
                extra_games: 12,
            },
            Error::RoundIncomplete { round: 1 },
            Error::GamesUnconfirmed {
                games: vec![(1, 2)],
            },
            Error::NoEarlyFinish,
            Error::FinalOpen,
        ];
        let mut codes = std::collections::BTreeSet::new();
        for e in &all {
            assert!(!e.zh().is_empty() && !e.en().is_empty(), "{e:?}");
            assert_ne!(e.zh(), e.en(), "{e:?} is said in one language only");
            assert!(codes.insert(e.code()), "two refusals share {}", e.code());
        }
        assert_eq!(Error::DrawMismatch { why: "x" }.refused(), Refused::Broken);
        assert_eq!(Error::NoRound.refused(), Refused::NotNow);
        assert_eq!(Error::AdjustOneWay.refused(), Refused::Invalid);
    }
}
