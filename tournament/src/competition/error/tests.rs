//! Every refusal has words in both languages and a code of its own, and docs/tournaments.md
//! lists every code with the status the server answers it with.

use std::collections::BTreeMap;

use super::*;

/// One refusal of every kind. A new variant must be listed here too: the match stops the
/// build until it is.
fn every_kind() -> Vec<Error> {
    let d = Direction::NS;
    let s = || "x".to_string();
    let all = vec![
        Error::Finished,
        Error::Exists,
        Error::NotRunLive { game: s() },
        Error::Text {
            field: Field::Reason,
            max: 200,
        },
        Error::Level { level: s() },
        Error::Trump { trump: s() },
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
        Error::NoRoom { room: 1 },
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
        Error::TeamNameTwice { name: s() },
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
        Error::NotRevisable,
        Error::AdjustOneWay,
        Error::AdjustPoints { defenders: 3 },
        Error::AdjustRange {
            defenders: 2000,
            max: 1000,
        },
        Error::SitOutArtificialOnly,
        Error::ArtificialHalf,
        Error::ArtificialBoth,
        Error::BadArtificial { given: s() },
        Error::BadSide { given: s() },
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
        Error::NotProducible { a: 12, b: 12 },
        Error::GameUnfinished {
            round: 1,
            table: 1,
            game: 1,
        },
        Error::NoSuchTeam { team: 9 },
        Error::NoFinishedGame { team: s() },
        Error::TeamNotPlaying { team: s() },
        Error::TeamDeduction { points: 0 },
        Error::LotKnockoutOnly,
        Error::NoMatch { round: 1, table: 9 },
        Error::NotInMatch {
            winner: s(),
            table: 1,
            a: s(),
            b: s(),
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
        Error::PracticeTermsInEvent,
        Error::NotPractice { game: s() },
        Error::PracticeNoEntries,
        Error::PracticeBoards { max: 16 },
        Error::PracticeLevel { level: s() },
        Error::PracticeOneRound,
        Error::PracticeClosed,
        Error::PracticeAgain { run: 3 },
        Error::PracticeNoRun { run: 3 },
        Error::PracticeNotBegun,
        Error::PracticeRunDone,
        Error::PracticeReference { level: s() },
        Error::PracticeNotNow { run: 1, board: 2 },
        Error::PracticeNoConfirm,
    ];
    for e in &all {
        use Error::*;
        match e {
            Finished
            | Exists
            | NotRunLive { .. }
            | Text { .. }
            | Level { .. }
            | Trump { .. }
            | NothingToFix
            | TableCount { .. }
            | TooManyBoards { .. }
            | BoardMinutes
            | EntriesClosed
            | NoEntries { .. }
            | PairCount { .. }
            | NoRoom { .. }
            | PairIsTwo { .. }
            | TeamCount { .. }
            | TeamIsThree { .. }
            | TeamNameTwice { .. }
            | CannotStart { .. }
            | NoSuchRound { .. }
            | NotPlaying { .. }
            | NoRound
            | NotStarted { .. }
            | Unfinished { .. }
            | Unconfirmed { .. }
            | EarlyMidRound
            | RoundsOpen { .. }
            | NoSuchPair { .. }
            | NotPairsSeat { .. }
            | NotThisBoard { .. }
            | WrongTable
            | NotRevisable
            | AdjustOneWay
            | AdjustPoints { .. }
            | AdjustRange { .. }
            | SitOutArtificialOnly
            | ArtificialHalf
            | ArtificialBoth
            | BadArtificial { .. }
            | BadSide { .. }
            | BadDeduction { .. }
            | Disqualified { .. }
            | TableUnfinished
            | NsFirst
            | DisputeNeedsNote
            | ComputerOnTime
            | PairIdle
            | SitOutNotLate
            | NoRoundClock
            | NotLateYet { .. }
            | SeatedInTime { .. }
            | Forfeited { .. }
            | Barred
            | WaitForRound
            | SitsOut
            | SitsOutHalf
            | LateForfeit
            | RoundPlayed
            | Opening
            | TeamIdle
            | NextGameNotOpen
            | FinalGameCount { .. }
            | NoGroups
            | FinalDrawn
            | DrawMismatch { .. }
            | Drawn
            | GameNotNow { .. }
            | WrongGameTable
            | GameResultRange { .. }
            | NotProducible { .. }
            | GameUnfinished { .. }
            | NoSuchTeam { .. }
            | NoFinishedGame { .. }
            | TeamNotPlaying { .. }
            | TeamDeduction { .. }
            | LotKnockoutOnly
            | NoMatch { .. }
            | NotInMatch { .. }
            | LotDrawn { .. }
            | LotNotNeeded { .. }
            | RoundIncomplete { .. }
            | GamesUnconfirmed { .. }
            | NoEarlyFinish
            | FinalOpen
            | PracticeTermsInEvent
            | NotPractice { .. }
            | PracticeNoEntries
            | PracticeBoards { .. }
            | PracticeLevel { .. }
            | PracticeOneRound
            | PracticeClosed
            | PracticeAgain { .. }
            | PracticeNoRun { .. }
            | PracticeNotBegun
            | PracticeRunDone
            | PracticeReference { .. }
            | PracticeNotNow { .. }
            | PracticeNoConfirm => {}
            // The library's and the name rule's refusals are theirs to list.
            Tournament(_) | Name(_) => unreachable!("not a kind of ours"),
        }
    }
    all
}

/// The status the server answers a refusal with (`server/src/competition/denied.rs`).
fn status(r: Refused) -> u16 {
    match r {
        Refused::Invalid => 400,
        Refused::NotNow => 409,
        Refused::Broken => 500,
    }
}

#[test]
fn every_refusal_has_words_in_both_languages_and_a_code_of_its_own() {
    let mut codes = std::collections::BTreeSet::new();
    for e in every_kind() {
        assert!(!e.zh().is_empty() && !e.en().is_empty(), "{e:?}");
        assert_ne!(e.zh(), e.en(), "{e:?} is said in one language only");
        assert!(codes.insert(e.code()), "two refusals share {}", e.code());
    }
    assert_eq!(Error::DrawMismatch { why: "x" }.refused(), Refused::Broken);
    assert_eq!(Error::NoRound.refused(), Refused::NotNow);
    assert_eq!(Error::AdjustOneWay.refused(), Refused::Invalid);
    assert_eq!(
        Error::Tournament(crate::Error::FinalTeams).code(),
        "final_teams",
        "the library's refusals keep their codes"
    );
}

/// docs/tournaments.md's list of a competition's refusal codes: code → status.
fn documented() -> BTreeMap<String, u16> {
    let doc = include_str!("../../../../docs/tournaments.md");
    let start = doc
        .find("### Refusal codes")
        .expect("docs/tournaments.md lists the competition's refusal codes");
    let section = &doc[start..];
    let section = &section[..section[4..].find("\n#").map_or(section.len(), |e| e + 4)];
    let mut out = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let code = cells[1].trim_matches('`').to_string();
        let status = cells[2].trim_matches('`').parse().expect("a status");
        assert!(out.insert(code.clone(), status).is_none(), "{code} twice");
    }
    out
}

#[test]
fn every_refusal_is_documented_with_its_status() {
    let ours: BTreeMap<String, u16> = every_kind()
        .into_iter()
        .map(|e| (e.code().to_string(), status(e.refused())))
        .collect();
    assert_eq!(ours, documented(), "docs/tournaments.md's refusal codes");
}
