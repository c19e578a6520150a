//! A sentence taken apart into the slots a fact has: the names it is about, its figures as
//! amounts, the periods it names, whether it is negated and which way it says things moved.
//! A claim is compared with a source slot by slot (`compare`), so a flipped "not", a reversed
//! "increased", a figure given to another name, another year or another scale is a mismatch
//! with a reason, however many words the two share.

pub mod amounts;
pub mod antecedent;
pub mod compare;
pub mod comparison;
pub mod names;
mod numerals;
pub mod periods;
pub mod movement;
pub mod polarity;
pub mod table;

use serde::{Deserialize, Serialize};

pub use amounts::{amounts, caption_scale, Amount, Family};
pub use compare::conflict;
pub use periods::{periods, Period};
pub use polarity::{directions, negated, Direction};

/// Why a sentence is not supported by the passages it could cite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Reason {
    /// The source says the opposite: "not" where it affirms, or the reverse.
    Negation,
    /// The source states the other direction: "decreased" for "increased", "after" for "before".
    Direction,
    /// The figure or relation belongs to another name in the source.
    OtherEntity,
    /// The right digits at another scale or in another unit (million for billion, MB for GB,
    /// percent for percentage points).
    ScaleOrUnit,
    /// Another year, quarter, date or version than the source's.
    Period,
    /// Another figure than the source's.
    Figure,
    /// No passage states it.
    NotStated,
}

impl Reason {
    /// Short words for people, in the answer's language.
    pub fn label(self, lang: crate::lang::Lang) -> &'static str {
        use crate::lang::Lang;
        match (self, lang) {
            (Reason::Negation, Lang::Zh) => "与来源的肯定/否定相反",
            (Reason::Direction, Lang::Zh) => "与来源的变化方向相反",
            (Reason::OtherEntity, Lang::Zh) => "来源中这是另一个对象的数据",
            (Reason::ScaleOrUnit, Lang::Zh) => "数量级或单位与来源不同",
            (Reason::Period, Lang::Zh) => "时期与来源不同",
            (Reason::Figure, Lang::Zh) => "数字与来源不同",
            (Reason::NotStated, Lang::Zh) => "来源中没有这一说法",
            (Reason::Negation, _) => "the source says the opposite",
            (Reason::Direction, _) => "the source states the other direction",
            (Reason::OtherEntity, _) => "the source gives this to something else",
            (Reason::ScaleOrUnit, _) => "another scale or unit than the source",
            (Reason::Period, _) => "another period than the source",
            (Reason::Figure, _) => "another figure than the source",
            (Reason::NotStated, _) => "not stated in the sources",
        }
    }
}

/// The slots of one sentence (a claim, or a unit of a source).
#[derive(Debug, Clone, Default)]
pub struct Statement {
    pub amounts: Vec<Amount>,
    pub periods: Vec<Period>,
    pub names: Vec<String>,
    pub negated: bool,
    pub directions: Vec<Direction>,
}

impl Statement {
    pub fn of(text: &str) -> Statement {
        Statement {
            amounts: amounts(text, None),
            periods: periods(text).into_iter().map(|(p, _)| p).collect(),
            names: names::names(text),
            negated: negated(text),
            directions: directions(text),
        }
    }
}
