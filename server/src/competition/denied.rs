//! Why a competition call was refused: the competition's own rule (`tournament::competition::
//! Error`, typed, answered 400, 409 or 500 by its kind) or the server's (a bad token, a store
//! that failed, a table that would not open). Each knows its HTTP status; none is found from
//! its words.

use protocol::{Problem, Refusal};
use tournament::competition::{Error, Refused};

/// A refused competition call.
#[derive(Clone, Debug, PartialEq)]
pub enum Denied {
    /// The competition's rules refused it.
    Rule(Error),
    /// The server refused it.
    Server(Refusal),
}

impl Denied {
    pub fn status(&self) -> u16 {
        match self {
            Denied::Rule(e) => match e.refused() {
                Refused::Invalid => 400,
                Refused::NotNow => 409,
                Refused::Broken => 500,
            },
            Denied::Server(r) => r.status(),
        }
    }

    pub fn problem(&self) -> Problem {
        match self {
            Denied::Rule(e) => Problem::explain(e),
            Denied::Server(r) => r.clone().into(),
        }
    }
}

impl From<Error> for Denied {
    fn from(e: Error) -> Denied {
        Denied::Rule(e)
    }
}

impl From<Refusal> for Denied {
    fn from(r: Refusal) -> Denied {
        Denied::Server(r)
    }
}

impl std::fmt::Display for Denied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.problem();
        write!(f, "{}: {}", p.code, p.en)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statuses docs/tournaments.md gives each kind of refusal (the tournament crate checks
    /// every code's kind against that list).
    #[test]
    fn each_kind_of_refusal_has_its_status() {
        assert_eq!(Denied::Rule(Error::AdjustOneWay).status(), 400);
        assert_eq!(Denied::Rule(Error::NoRound).status(), 409);
        assert_eq!(Denied::Rule(Error::DrawMismatch { why: "x" }).status(), 500);
        assert_eq!(Denied::Server(Refusal::NoCompetition).status(), 404);
        assert_eq!(Denied::Rule(Error::NoRound).problem().code, "no_round");
    }
}
