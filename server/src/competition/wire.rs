//! Between the wire and the competition: the director's and the players' requests (protocol
//! types) as the competition's own (`tournament::competition`), and back for the views. Nothing
//! here decides a rule; a value the competition cannot read is refused in its words.

use protocol::{ArtificialPair, CompetitionState, GoujiGameResult, Refusal, Wrong};
use tournament::competition::duplicate::ArtificialScores;
use tournament::competition::{Error, Stage};
use tournament::gouji::{GameRecord, Side};
use tournament::{Artificial, Direction};

use super::denied::Denied;

/// A direction as typed: `NS` or `EW`, any case.
pub fn direction(s: &str) -> Result<Direction, Denied> {
    match s.trim().to_ascii_uppercase().as_str() {
        "NS" => Ok(Direction::NS),
        "EW" => Ok(Direction::EW),
        _ => Err(Refusal::BadRequest(Wrong::Direction {
            direction: s.to_string(),
        })
        .into()),
    }
}

fn artificial(s: &str) -> Result<Artificial, Error> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).map_err(|_| {
        Error::BadArtificial {
            given: s.to_string(),
        }
    })
}

/// Artificial scores as typed (`A`, `A+`, `A-`).
pub fn artificial_scores(a: &ArtificialPair) -> Result<ArtificialScores, Error> {
    Ok(ArtificialScores {
        ns: a.ns.as_deref().map(artificial).transpose()?,
        ew: a.ew.as_deref().map(artificial).transpose()?,
    })
}

fn artificial_name(a: Artificial) -> String {
    match a {
        Artificial::Average => "A",
        Artificial::AveragePlus => "A+",
        Artificial::AverageMinus => "A-",
    }
    .to_string()
}

/// Artificial scores as shown.
pub fn artificial_pair(a: &ArtificialScores) -> ArtificialPair {
    ArtificialPair {
        ns: a.ns.map(artificial_name),
        ew: a.ew.map(artificial_name),
    }
}

/// A 够级 result the director typed: sides `"a"` or `"b"`.
pub fn record(r: &GoujiGameResult) -> Result<GameRecord, Error> {
    let side = |x: &str| match x {
        "a" | "A" => Ok(Side::A),
        "b" | "B" => Ok(Side::B),
        _ => Err(Error::BadSide {
            given: x.to_string(),
        }),
    };
    Ok(GameRecord {
        a: r.a,
        b: r.b,
        first: r.first.as_deref().map(side).transpose()?,
        last: r.last.iter().map(|x| side(x)).collect::<Result<_, _>>()?,
    })
}

pub fn side_name(s: Side) -> String {
    match s {
        Side::A => "a",
        Side::B => "b",
    }
    .to_string()
}

/// A 够级 result as shown.
pub fn result_view(r: &GameRecord) -> GoujiGameResult {
    GoujiGameResult {
        a: r.a,
        b: r.b,
        first: r.first.map(side_name),
        last: r.last.iter().copied().map(side_name).collect(),
    }
}

/// A ruling at a table that revised its result, as shown.
pub fn revision(r: &tournament::competition::Ruling) -> protocol::Revision {
    protocol::Revision {
        by: "referee".to_string(),
        table_seq: r.table_seq,
        reason: r.reason.clone(),
    }
}

pub fn state(s: Stage) -> CompetitionState {
    match s {
        Stage::Registering => CompetitionState::Registering,
        Stage::Running => CompetitionState::Running,
        Stage::Finished => CompetitionState::Finished,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_read_back_as_shown() {
        let won = GameRecord {
            a: 4,
            b: -4,
            first: Some(Side::A),
            last: vec![Side::B],
        };
        assert_eq!(record(&result_view(&won)).unwrap(), won);
        let bad = GoujiGameResult {
            a: 1,
            b: 0,
            first: Some("c".into()),
            last: Vec::new(),
        };
        assert_eq!(record(&bad), Err(Error::BadSide { given: "c".into() }));
        let typed = ArtificialPair {
            ns: Some("A+".into()),
            ew: Some("A-".into()),
        };
        assert_eq!(artificial_pair(&artificial_scores(&typed).unwrap()), typed);
        let wrong = ArtificialPair {
            ns: Some("B".into()),
            ew: None,
        };
        assert_eq!(
            artificial_scores(&wrong),
            Err(Error::BadArtificial { given: "B".into() })
        );
        assert_eq!(direction(" ew ").unwrap(), Direction::EW);
        assert_eq!(direction("N").unwrap_err().status(), 400);
    }
}
