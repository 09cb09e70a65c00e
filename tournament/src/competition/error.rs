//! 拒绝 (refusals of a competition): every step the log, the director, a pair or a team may ask
//! for and the competition does not allow now, with a stable code and words in Chinese and
//! English that say which round, table, pair or team and why. Each says whether the request is
//! wrong in itself ([`Refused::Invalid`]), right but not now ([`Refused::NotNow`]), or a sign
//! that the server's own records disagree ([`Refused::Broken`]): the server answers 400, 409 or
//! 500 from that, never from the words.
//!
//! Each refusal is written once, in the `refusals!` table below: its fields, how it is answered, its code and
//! its words in both languages, side by side.

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

/// `[1, 2]` as `1、2` (Chinese) or `1, 2`.
fn list(items: &[u32], sep: &str) -> String {
    items
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// Games as `table-game`.
fn games(items: &[(u32, u32)], sep: &str) -> String {
    items
        .iter()
        .map(|(t, g)| format!("{t}-{g}"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// Defines [`Error`] from one table: `Variant { fields } => Answer, "code", zh, en;` where `zh`
/// and `en` are expressions over the fields. Besides the table's, two variants pass a refusal
/// of the movement and scoring library and of the name rule through with their own codes.
macro_rules! refusals {
    ($(
        $(#[$doc:meta])*
        $name:ident $({ $($field:ident : $ty:ty),* $(,)? })?
            => $answer:ident, $code:literal, $zh:expr, $en:expr;
    )*) => {
        /// Why a competition refused a step. Nothing changed.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Error {
            /// A movement, draw or scoring refusal of the tournament library.
            Tournament(crate::Error),
            /// A player's name.
            Name(NameFault),
            $( $(#[$doc])* $name $({ $($field: $ty),* })?, )*
        }

        impl Error {
            /// How the refusal is answered.
            pub fn refused(&self) -> Refused {
                match self {
                    Error::Tournament(_) | Error::Name(_) => Refused::Invalid,
                    $( Error::$name { .. } => Refused::$answer, )*
                }
            }
        }

        impl Explain for Error {
            fn code(&self) -> &'static str {
                match self {
                    Error::Tournament(e) => e.code(),
                    Error::Name(f) => f.code(),
                    $( Error::$name { .. } => $code, )*
                }
            }

            #[allow(unused_variables)]
            fn zh(&self) -> String {
                match self {
                    Error::Tournament(e) => e.zh(),
                    Error::Name(f) => f.zh(),
                    $( Error::$name $({ $($field),* })? => String::from($zh), )*
                }
            }

            #[allow(unused_variables)]
            fn en(&self) -> String {
                match self {
                    Error::Tournament(e) => e.en(),
                    Error::Name(f) => f.en(),
                    $( Error::$name $({ $($field),* })? => String::from($en), )*
                }
            }
        }
    };
}

refusals! {
    // ---- the competition as a whole ----
    /// The seed is revealed: nothing changes any more.
    Finished => NotNow, "competition_finished",
        "比赛已结束（种子已公布），不能再改",
        "the competition is finished (the seed is revealed): nothing more can change";
    /// A second `create`.
    Exists => NotNow, "competition_exists", "比赛已经建立", "the competition exists";
    /// This server runs no competition of this game live.
    NotRunLive { game: String } => Invalid, "not_run_live",
        format!("「{game}」的比赛还不能在线进行：只有 80分 双人赛（shengji）和够级团体赛（gouji）"),
        format!("competitions of \"{game}\" are not run live: only 80分 duplicate pairs (shengji) and 够级 teams (gouji)");
    /// A typed text is empty or too long.
    Text { field: Field, max: usize } => Invalid, "bad_text",
        format!("{}要 1 到 {max} 个字", field.zh()),
        format!("{} must be 1 to {max} characters", field.en());
    /// 80分: a level that is not a rank.
    Level { level: String } => Invalid, "bad_level",
        format!("级数「{level}」不对：应为 2–10、J、Q、K、A"),
        format!("level \"{level}\" is not a rank (2-10, J, Q, K, A)");
    /// 80分: a trump that is not a suit or NT.
    Trump { trump: String } => Invalid, "bad_trump",
        format!("主「{trump}」不对：应为 S、H、D、C 或 NT（无主）"),
        format!("trump \"{trump}\" is not S, H, D, C or NT");
    /// 够级 has no level or trump.
    NothingToFix => Invalid, "nothing_to_fix",
        "够级没有定级和定主", "够级 has no level or trump to fix";
    /// 80分: 1 to `max` tables.
    TableCount { max: u32 } => Invalid, "table_count",
        format!("桌数要 1 到 {max}"), format!("tables must be 1 to {max}");
    /// 80分: the movement deals more boards than a competition may.
    TooManyBoards { boards: u32, max: u32 } => Invalid, "too_many_boards",
        format!("最多 {max} 副牌，这样要 {boards} 副"),
        format!("at most {max} boards; this needs {boards}");
    /// 80分: 1 to 120 minutes a board.
    BoardMinutes => Invalid, "board_minutes",
        "每副牌的时间要 1 到 120 分钟", "minutes a board must be 1 to 120";

    // ---- entries ----
    /// Entries change only before round 1.
    EntriesClosed => NotNow, "entries_closed",
        "第一轮已开始，不能再改报名", "round 1 has started: the entries can no longer change";
    /// Nothing can start before the entries are in.
    NoEntries { teams: bool } => NotNow, "no_entries",
        if *teams { "还没有报名：请先登记各队" } else { "还没有报名：请先登记各对" },
        if *teams { "no teams registered yet" } else { "no pairs registered yet" };
    /// 80分: late entries take computers' places (or the half table's): not more than there are.
    NoRoom { room: usize } => Invalid, "no_room",
        format!("没有那么多空位：迟报的只能替换电脑对（或补半桌的空位），现在有 {room} 个"),
        format!("no room: late entries take computer pairs' places (or the half table's), and there are {room}");
    /// 80分: two pairs a table (one fewer: a half table).
    PairCount { tables: u32, got: usize } => Invalid, "pair_count",
        format!("{tables} 桌要报 {} 对（南北 {tables} 对、东西 {tables} 对；少一对为半桌），收到 {got} 对", 2 * tables),
        format!("{tables} tables need {} pairs (NS 1–{tables}, then EW 1–{tables}; one fewer makes a half table); got {got}", 2 * tables);
    /// 80分: a pair is two players.
    PairIsTwo { direction: Direction, number: u32 } => Invalid, "pair_is_two",
        format!("{}{number}：一对是两位选手", direction.zh()),
        format!("{} {number}: a pair is two players", direction.name());
    /// 够级: the number of teams.
    TeamCount { got: usize, min: usize, max: usize } => Invalid, "team_count",
        format!("够级比赛要 {min} 到 {max} 支队（决赛 6 队），收到 {got} 支"),
        format!("a 够级 competition needs {min} to {max} teams (six play the final); got {got}");
    /// 够级: a team is three players.
    TeamIsThree { number: u32 } => Invalid, "team_is_three",
        format!("第 {number} 队：一队是三位选手"), format!("team {number}: a team is three players");
    /// 够级: two teams of one name.
    TeamNameTwice { name: String } => Invalid, "team_name_twice",
        format!("队名「{name}」重复了"), format!("two teams are named \"{name}\"");

    // ---- rounds ----
    /// Rounds start in order, each after the last one closed.
    CannotStart { round: u32, last: u32, last_closed: bool } => NotNow, "round_cannot_start",
        if *last_closed {
            format!("现在只能开始第 {} 轮（第 {last} 轮已结束）", last + 1)
        } else {
            format!("现在只能开始第 {} 轮（第 {last} 轮还没结束）", last + 1)
        },
        if *last_closed {
            format!("round {round} cannot start now: the next round is {}", last + 1)
        } else {
            format!("round {round} cannot start now: round {last} is not closed")
        };
    /// 80分: past the rounds created.
    NoSuchRound { rounds: u32 } => NotNow, "no_such_round",
        format!("比赛只有 {rounds} 轮"), format!("the competition has {rounds} rounds");
    /// That round is not the one being played.
    NotPlaying { round: u32 } => NotNow, "round_not_playing",
        format!("第 {round} 轮没有在进行"), format!("round {round} is not being played");
    /// No round is being played.
    NoRound => NotNow, "no_round", "现在没有进行中的一轮", "no round is being played";
    /// That round has not started.
    NotStarted { round: u32 } => NotNow, "round_not_started",
        format!("第 {round} 轮还没开始"), format!("round {round} has not started");
    /// 80分: boards of these tables have no result.
    Unfinished { tables: Vec<u32> } => NotNow, "boards_unfinished",
        format!("这些桌还有牌没有成绩：{}", list(tables, "、")),
        format!("these tables have boards without a result: {}", list(tables, ", "));
    /// 80分: these tables' results are not confirmed by both pairs (or disputed).
    Unconfirmed { tables: Vec<u32> } => NotNow, "results_unconfirmed",
        format!("这些桌的成绩还没有双方确认（或有异议）：{}；裁判长可强制结束本轮", list(tables, "、")),
        format!("these tables' results are not confirmed by both pairs (or disputed): {}; the director may force the close", list(tables, ", "));
    /// 80分 finishing early: only between rounds.
    EarlyMidRound => NotNow, "early_mid_round",
        "提前结束要在某一轮结束之后（没有进行中的一轮）",
        "finishing early needs a closed round and no round being played";
    /// 80分: rounds still open.
    RoundsOpen { closed: u32, rounds: u32 } => NotNow, "rounds_open",
        format!("还有轮次没结束（已结束 {closed} / {rounds} 轮）：最后一副打完、各轮结束后才公布种子（或提前结束比赛）"),
        format!("rounds are still open ({closed} of {rounds} closed): the seed is revealed once every round is closed (or finish early)");

    // ---- 80分 pairs and boards ----
    /// No such pair.
    NoSuchPair { direction: Direction, pair: u32 } => Invalid, "no_such_pair",
        format!("{}没有第 {pair} 对", direction.zh()),
        format!("{} has no pair {pair}", direction.name());
    /// That seat is not the pair's.
    NotPairsSeat { seat: usize } => Invalid, "not_pairs_seat",
        format!("{seat} 号座位不是这一对的"), format!("seat {seat} is not the pair's");
    /// That table does not play that board in that round.
    NotThisBoard { round: u32, table: u32, board: u32 } => Invalid, "not_this_board",
        format!("第 {round} 轮第 {table} 桌不打第 {board} 副"),
        format!("table {table} does not play board {board} in round {round}");
    /// A result from a table that is not the board's.
    WrongTable => NotNow, "wrong_table",
        "这张牌桌不是这副牌的", "that table does not deal this board here";
    /// A ruling at a table changes a result that came from that table, the director's not.
    NotRevisable => NotNow, "not_revisable",
        "这副牌没有这张牌桌的成绩可改（或裁判长已调整）：请裁判长调整成绩",
        "this board has no result from that table to revise (or the director has adjusted it): the director adjusts it";
    /// An adjusted result: points or artificial scores, one of them.
    AdjustOneWay => Invalid, "adjust_one_way",
        "调整成绩要么给闲家得分，要么给人为分",
        "an adjusted result has either defenders' points or artificial scores";
    /// Defenders' points come in fives.
    AdjustPoints { defenders: i32 } => Invalid, "adjust_points",
        format!("闲家得分 {defenders} 不对：应为 5 的倍数"),
        format!("defenders' points {defenders}: not a multiple of 5");
    /// Defenders' points of a board lie within ±`max` (a typo of 1000 for 100 is caught).
    AdjustRange { defenders: i32, max: i32 } => Invalid, "adjust_range",
        format!("闲家得分 {defenders} 超出范围：应在 -{max} 到 {max} 之间"),
        format!("defenders' points {defenders} are out of range: -{max} to {max}");
    /// A sit-out has no opponents: only an artificial score.
    SitOutArtificialOnly => Invalid, "sit_out_artificial_only",
        "半桌：轮空的一桌没有对手，只能给人为分",
        "a half table: a sit-out has no opponents; only an artificial score can be given";
    /// A half table's artificial score goes to the side that is there only.
    ArtificialHalf => Invalid, "artificial_half",
        "半桌：人为分只给在场的一方（空位一方不给）",
        "a half table: the artificial score goes to the side that has a pair only";
    /// An artificial result names both sides.
    ArtificialBoth => Invalid, "artificial_both",
        "人为分要给双方（例如南北 A+、东西 A-）",
        "an artificial result gives both sides a score (e.g. NS A+, EW A-)";
    /// Not A, A+ or A−.
    BadArtificial { given: String } => Invalid, "bad_artificial",
        format!("人为分「{given}」不对：应为 A、A+ 或 A-"),
        format!("artificial score \"{given}\" is not A, A+ or A-");
    /// 够级: a side that is not a or b.
    BadSide { given: String } => Invalid, "bad_side",
        format!("「{given}」不是一方：应为 a 或 b"), format!("\"{given}\" is not a side: a or b");
    /// Match points off come in halves.
    BadDeduction { mp: f64 } => Invalid, "bad_deduction",
        format!("扣分 {mp} 不对：应为 0.5 的正整数倍"),
        format!("a deduction of {mp}: must be a positive multiple of 0.5");
    /// Disqualified once is enough.
    Disqualified { direction: Direction, pair: u32 } => NotNow, "disqualified",
        format!("{}第 {pair} 对已被取消资格", direction.zh()),
        format!("{} pair {pair} is disqualified already", direction.name());
    /// The table has boards to play.
    TableUnfinished => NotNow, "table_unfinished",
        "本桌这一轮的牌还没打完", "the boards of this table are not all played yet";
    /// EW checks what NS recorded.
    NsFirst => NotNow, "ns_first",
        "请南北先填写确认成绩，东西再核对", "NS record the results first; then EW check them";
    /// A dispute says what is wrong.
    DisputeNeedsNote => Invalid, "dispute_needs_note",
        "有异议请写明情况，裁判会来处理", "a dispute needs a note: the referee comes to settle it";
    /// Lateness: a computer pair is never late.
    ComputerOnTime => Invalid, "computer_on_time",
        "电脑对总是准时入座", "a computer pair is always seated in time";
    /// Lateness: the pair plays no table this round.
    PairIdle => NotNow, "pair_idle", "这一轮这一对不打", "the pair does not play this round";
    /// Lateness: a sit-out cannot be late.
    SitOutNotLate => NotNow, "sit_out_not_late",
        "半桌：这一对本轮轮空，无所谓迟到",
        "a half table: the pair sits out this round; it cannot be late";
    /// Lateness: the round's start was not logged.
    NoRoundClock => NotNow, "no_round_clock",
        "这一轮的开始时间没有记录，不能判迟到",
        "this round's start time was not logged: lateness cannot be judged";
    /// Lateness: less than ten minutes since the start.
    NotLateYet { minutes_left: u64 } => NotNow, "not_late_yet",
        format!("本轮开始还不到 10 分钟（还有约 {minutes_left} 分钟），不能判迟到"),
        format!("the round started less than 10 minutes ago (about {minutes_left} minutes to go): not late yet");
    /// Lateness: the pair sat down in time.
    SeatedInTime { direction: Direction, pair: u32 } => NotNow, "seated_in_time",
        format!("{}第 {pair} 对已按时入座（开始后 10 分钟内）", direction.zh()),
        format!("{} pair {pair} was seated in time (within 10 minutes of the start)", direction.name());
    /// Lateness: ruled once already.
    Forfeited { direction: Direction, pair: u32 } => NotNow, "forfeited",
        format!("{}第 {pair} 对本轮已判弃权", direction.zh()),
        format!("{} pair {pair} has forfeited this round already", direction.name());

    // ---- a player's own steps ----
    /// The pair or team may not play any more.
    Barred => NotNow, "barred",
        "您已被裁判长取消比赛资格，不能再入座",
        "you have been disqualified by the director and play no more";
    /// No round is being played: the director starts the next one.
    WaitForRound => NotNow, "wait_for_round",
        "现在没有进行中的一轮：请等裁判长开始下一轮",
        "no round is being played: wait for the director to start the next one";
    /// The pair sits this round out.
    SitsOut => NotNow, "sits_out", "这一轮您轮空", "your pair sits this round out";
    /// A half table: the pair sits out with an average.
    SitsOutHalf => NotNow, "sits_out_half",
        "半桌：这一轮您的对手是空位，您轮空，每副得平均分 A",
        "a half table: your opponents this round are the phantom; you sit out with an average (A) on each board";
    /// The pair was ruled late and forfeited the round.
    LateForfeit => NotNow, "late_forfeit",
        "您这一对迟到超过10分钟，本轮已判弃权；请等下一轮",
        "your pair was more than 10 minutes late and has forfeited this round; wait for the next one";
    /// Every board of the round is played: confirm the results.
    RoundPlayed => NotNow, "round_played",
        "本轮的牌都打完了：请确认成绩", "every board of this round is played: confirm the results";
    /// The table is being opened.
    Opening => NotNow, "table_opening",
        "牌桌正在打开，请稍候再试", "the table is opening: try again in a moment";
    /// 够级: the team plays no match this round.
    TeamIdle => NotNow, "team_idle",
        "这一轮您队没有比赛（轮空或已淘汰）", "your team plays no match this round (a bye, or out)";
    /// 够级: the team's next game is not open (or the round is over).
    NextGameNotOpen => NotNow, "next_game_not_open",
        "下一局的牌桌还没打开（或本轮已打完）：请稍候再试",
        "the next game's table is not open (or the round is over): try again in a moment";

    // ---- 够级 teams, matches, games ----
    /// The final's games: a multiple of 3 from 3 to 30.
    FinalGameCount { games: u32 } => Invalid, "final_game_count",
        format!("决赛局数 {games} 不对：应为 3 的倍数（3 到 30），每 3 局 A 组每队与 B 组每队各赛一局"),
        format!("{games} final games: must be a multiple of 3 (3 to 30), so that every A team meets every B team equally often");
    /// At least one group.
    NoGroups => Invalid, "no_groups", "小组数至少为 1", "at least one group";
    /// The final is drawn: no next round.
    FinalDrawn => NotNow, "final_drawn",
        "决赛已经开始：没有下一轮", "the final has been drawn: there is no next round";
    /// A logged draw that does not fit the competition.
    DrawMismatch { why: &'static str } => Broken, "draw_mismatch",
        "抽签结果与比赛不符", format!("the draw does not fit the competition: {why}");
    /// The round is drawn already.
    Drawn => NotNow, "drawn", "这一轮已经抽过签", "that round is drawn already";
    /// That table does not play that game now.
    GameNotNow { round: u32, table: u32, game: u32 } => NotNow, "game_not_now",
        format!("第 {round} 轮第 {table} 桌现在不打第 {game} 局"),
        format!("table {table} of round {round} does not play game {game} now");
    /// A result from a table that is not the game's, or for a game that has one.
    WrongGameTable => NotNow, "wrong_game_table",
        "这张牌桌不是这一局的，或这一局已有成绩",
        "that table does not deal this game here, or the game has its result";
    /// A ruled result out of every range the rules produce.
    GameResultRange { most: i32 } => Invalid, "game_result_range",
        format!("成绩不对：每队得分应在 -{most} 到 {most} 之间，大落最多 6 个"),
        format!("a result of -{most} to {most} points a team and at most 6 大落");
    /// A ruled result no game can have under the competition's scoring.
    NotProducible { a: i32, b: i32 } => Invalid, "not_producible",
        format!("成绩 {a} : {b} 不可能出现：按本赛事的计分，名次、点贡、串三户、扣分或告负都得不出这个结果（头科、大落也要对得上）"),
        format!("{a} : {b} is no game's result: places, 点贡, 串三户, the referee's deductions or a forfeit under this competition's scoring cannot make it (with its 头科 and 大落)");
    /// A ruling replaces a finished game's result.
    GameUnfinished { round: u32, table: u32, game: u32 } => NotNow, "game_unfinished",
        format!("第 {round} 轮第 {table} 桌第 {game} 局还没有成绩：打完才能改判"),
        format!("game {game} at table {table} of round {round} has no result yet: a ruling replaces a finished game's");
    /// No team of that number.
    NoSuchTeam { team: u32 } => Invalid, "no_such_team",
        format!("没有第 {team} 队"), format!("no team {team}");
    /// A captain signs finished games.
    NoFinishedGame { team: String } => NotNow, "no_finished_game",
        format!("「{team}」这一轮还没有打完的局"),
        format!("\"{team}\" has no finished game this round yet");
    /// The team plays no match this round.
    TeamNotPlaying { team: String } => NotNow, "team_not_playing",
        format!("「{team}」这一轮没有比赛"), format!("\"{team}\" plays no match this round");
    /// A team deduction is 1 to 100 points.
    TeamDeduction { points: i32 } => Invalid, "team_deduction",
        format!("扣分 {points} 不对：应为 1 到 100"),
        format!("a deduction of {points}: must be 1 to 100 points");
    /// Lots decide knockout matches only.
    LotKnockoutOnly => NotNow, "lot_knockout_only",
        "抽签只用于淘汰赛：决赛加赛用完仍并列的队伍名次并列",
        "lots are for knockout matches: teams of the final still level after its extra games share their place";
    /// No match at that table.
    NoMatch { round: u32, table: u32 } => Invalid, "no_match",
        format!("第 {round} 轮没有第 {table} 桌的对阵"),
        format!("round {round} has no match at table {table}");
    /// The lot's winner is not a team of the match.
    NotInMatch { winner: String, table: u32, a: String, b: String } => Invalid, "not_in_match",
        format!("「{winner}」不是第 {table} 桌对阵的一方（{a} 对 {b}）"),
        format!("\"{winner}\" is not a team of the match at table {table} ({a} v {b})");
    /// The lot was drawn.
    LotDrawn { table: u32 } => NotNow, "lot_drawn",
        format!("第 {table} 桌已经抽过签"), format!("the match at table {table} has had its lot drawn");
    /// Play can still decide the match.
    LotNotNeeded { table: u32, extra_games: u32 } => NotNow, "lot_not_needed",
        format!("第 {table} 桌的对阵还能由比赛决定：{extra_games} 局加赛都打完仍不分胜负才抽签"),
        format!("the match at table {table} can still be decided by play: lots are drawn only once its {extra_games} extra games have left it level");
    /// The round has games without a result, or an extra game to play.
    RoundIncomplete { round: u32 } => NotNow, "round_incomplete",
        format!("第 {round} 轮还有局没有成绩（或还要加赛）"),
        format!("round {round} has games without a result (or an extra game to play)");
    /// These games are not signed by both captains (or disputed).
    GamesUnconfirmed { games: Vec<(u32, u32)> } => NotNow, "games_unconfirmed",
        format!("这些局（桌-局）的成绩还没有双方队长确认（或有异议）：{}；裁判长可强制结束本轮", self::games(games, "、")),
        format!("these games (table-game) are not confirmed by both captains (or disputed): {}; the director may force the close", self::games(games, ", "));
    /// 够级 has no early finish.
    NoEarlyFinish => Invalid, "no_early_finish",
        "够级比赛不能提前结束：决赛定出名次后才公布种子",
        "a 够级 competition cannot finish early: the seed is revealed once the final is closed";
    /// The final is not closed.
    FinalOpen => NotNow, "final_open",
        "决赛还没有结束：决赛结束后才公布种子",
        "the final is not closed yet: the seed is revealed once it is";

    // ---- practice sets (练习牌套) ----
    /// A director's event given a practice set's terms.
    PracticeTermsInEvent => Invalid, "practice_terms_in_event",
        "比赛不能带练习牌套的设置：练习牌套在「练习」里建立",
        "an event cannot carry a practice set's terms: practice sets are made under practice";
    /// A practice set given no terms, or another game's.
    NotPractice { game: String } => Invalid, "not_practice",
        format!("这不是「{game}」的练习牌套"),
        format!("this is not a practice set of \"{game}\"");
    /// A practice set takes no entries.
    PracticeNoEntries => Invalid, "practice_no_entries",
        "练习牌套不用报名：谁都可以随时来打",
        "a practice set takes no entries: anyone plays it at any time";
    /// A practice set's size.
    PracticeBoards { max: u32 } => Invalid, "practice_boards",
        format!("练习牌套要有 1 到 {max} 副（局）牌"),
        format!("a practice set has 1 to {max} boards (games)");
    /// A level that is not one of the computers'.
    PracticeLevel { level: String } => Invalid, "practice_level",
        format!("电脑水平「{level}」不对：应为 入门（beginner）、普通（club）或 高手（expert）"),
        format!("computer level \"{level}\" is not one of beginner (入门), club (普通) or expert (高手)");
    /// A practice set has one round: it opens once.
    PracticeOneRound => Invalid, "practice_one_round",
        "练习牌套只有一轮：开放一次，到时关闭",
        "a practice set has one round: it opens once and closes at its time";
    /// The set is not open (not yet, or closed): no run begins, no board is played.
    PracticeClosed => NotNow, "practice_closed",
        "这套练习牌已经关闭（或还没开放）：请打今天的牌套",
        "this practice set is closed (or not open yet): play today's set";
    /// One run a player a set.
    PracticeAgain { run: u32 } => NotNow, "practice_again",
        format!("您已经打过（或正在打）这套牌（第 {run} 位）：每套牌每人打一次"),
        format!("you have played (or are playing) this set already (run {run}): one run a player a set");
    /// No run of that number, or not where the log says.
    PracticeNoRun { run: u32 } => Invalid, "practice_no_run",
        format!("这套牌没有第 {run} 位的记录"), format!("this set has no run {run}");
    /// The player has not begun the set.
    PracticeNotBegun => NotNow, "practice_not_begun",
        "您还没有开始打这套牌", "you have not begun this set";
    /// The run's boards are all played.
    PracticeRunDone => NotNow, "practice_run_done",
        "这套牌您已经打完了：看看成绩和别人的打法吧",
        "you have played every board of this set: see your result and how others played";
    /// A reference run of a level not in the set's terms, or a second one.
    PracticeReference { level: String } => Invalid, "practice_reference",
        format!("电脑「{level}」的参考成绩不在这套牌的设置里，或已经有了"),
        format!("a computers' reference run at \"{level}\" is not in this set's terms, or is there already");
    /// A board or table that is not the run's now.
    PracticeNotNow { run: u32, board: u32 } => Invalid, "practice_not_now",
        format!("第 {run} 位现在不打第 {board} 副"),
        format!("run {run} does not play board {board} now");
    /// A practice player confirms nothing.
    PracticeNoConfirm => Invalid, "practice_no_confirm",
        "练习不用确认成绩：每副打完就记下了",
        "practice needs no confirmation: each board's result is kept as it ends";
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

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.en(), self.zh())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests;
