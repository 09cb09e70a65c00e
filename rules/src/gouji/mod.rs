//! 够级 (Gouji), ruleset `zaozhuang-2017`: see docs/rules-gouji.md.

pub mod seat;
pub use seat::Seat;
