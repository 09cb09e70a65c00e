//! 80分 (升级), ruleset `fujian-2024`: see docs/rules-shengji.md.

pub mod seat;
pub use seat::Seat;
